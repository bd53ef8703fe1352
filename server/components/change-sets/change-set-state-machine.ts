/** The change-set transition table (docs/architecture.md §1.4): self-service withdraw; approve/reject for reviewers only. */
import type { AppError } from '../../../lib/app-error.js';
import type { Scope } from '../../principal.js';
import type { GrantRole } from '../grants/grants.model.js';
import {
  refusalError,
  roleRefusal,
  scopeRefusal,
  statusRefusal,
  type BlockedAction,
  type Refusal,
} from '../registrations/state-machine.js';
import type { ChangeSet, ChangeSetStatus } from './change-sets.model.js';

const CHANGE_SET_SELF_SERVICE_ACTIONS = ['withdraw'] as const;
export type ChangeSetSelfServiceAction = (typeof CHANGE_SET_SELF_SERVICE_ACTIONS)[number];
export type ChangeSetReviewAction = 'approve' | 'reject';

interface Row<A extends string> {
  action: A;
  from: readonly ChangeSetStatus[];
  to: ChangeSetStatus;
  scope?: Scope;
  /** `own`: a developer may act on the change sets it proposed (owners on every one, viewers on none). */
  developer?: 'own';
}

export const changeSetSelfServiceTable: readonly Row<ChangeSetSelfServiceAction>[] = [
  { action: 'withdraw', from: ['pending_review'], to: 'withdrawn', scope: 'change_sets:write', developer: 'own' },
];

export const changeSetReviewTable: readonly Row<ChangeSetReviewAction>[] = [
  { action: 'approve', from: ['pending_review'], to: 'approved' },
  { action: 'reject', from: ['pending_review'], to: 'rejected' },
];

export function changeSetRow<A extends string>(table: readonly Row<A>[], action: A): Row<A> {
  return table.find((row) => row.action === action) as Row<A>;
}

/**
 * What a change-set action depends on besides the change set: the caller's scopes, and which change set holds its
 * registration's lock. Every decision on a pending change set (withdraw, approve, reject) commits by releasing that
 * lock in one conditional write, so exactly one of them wins a race.
 */
export interface ChangeSetActionContext {
  scopes: ReadonlySet<string>;
  /** The caller's role in the organization and who it is (a developer withdraws what it proposed). */
  role: GrantRole;
  subject: string;
  /** The registration's `pendingChangeSetId`. */
  lockHolder: string | undefined;
}

export function lockRefusal(): Refusal {
  return {
    code: 'conflict',
    message: 'This change set is being decided (it no longer holds its registration); read it again.',
  };
}

function changeSetRefusalOf(
  action: ChangeSetSelfServiceAction,
  record: ChangeSet,
  context: ChangeSetActionContext,
): Refusal | undefined {
  const row = changeSetRow(changeSetSelfServiceTable, action);
  if (row.scope && !context.scopes.has(row.scope)) return scopeRefusal(row.scope);
  const role = roleRefusal(action, row.developer, record.createdBy, context, 'change set');
  if (role) return role;
  if (!row.from.includes(record.status)) return statusRefusal(action, record.status);
  if (context.lockHolder !== record.id) return lockRefusal();
  return undefined;
}

export function checkChangeSet(
  action: ChangeSetSelfServiceAction,
  record: ChangeSet,
  context: ChangeSetActionContext,
): AppError | undefined {
  const refusal = changeSetRefusalOf(action, record, context);
  return refusal && refusalError(refusal);
}

/** Allowed change-set actions and refused ones with their reasons, in one pass. */
export function evaluateChangeSetActions(
  record: ChangeSet,
  context: ChangeSetActionContext,
): { actions: ChangeSetSelfServiceAction[]; blockedActions: BlockedAction<ChangeSetSelfServiceAction>[] } {
  const actions: ChangeSetSelfServiceAction[] = [];
  const blockedActions: BlockedAction<ChangeSetSelfServiceAction>[] = [];
  for (const action of CHANGE_SET_SELF_SERVICE_ACTIONS) {
    const refusal = changeSetRefusalOf(action, record, context);
    if (refusal) blockedActions.push({ action, code: refusal.code, message: refusal.message });
    else actions.push(action);
  }
  return { actions, blockedActions };
}
