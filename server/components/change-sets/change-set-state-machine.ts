/** The change-set transition table (DESIGN.md §1.4): self-service withdraw; approve/reject for reviewers only. */
import type { AppError } from '../../../lib/app-error.js';
import type { Scope } from '../../principal.js';
import { refusalError, scopeRefusal, statusRefusal, type BlockedAction, type Refusal } from '../registrations/state-machine.js';
import type { ChangeSet, ChangeSetStatus } from './change-sets.model.js';

export const CHANGE_SET_SELF_SERVICE_ACTIONS = ['withdraw'] as const;
export type ChangeSetSelfServiceAction = (typeof CHANGE_SET_SELF_SERVICE_ACTIONS)[number];
export type ChangeSetReviewAction = 'approve' | 'reject';

interface Row<A extends string> {
  action: A;
  from: readonly ChangeSetStatus[];
  to: ChangeSetStatus;
  scope?: Scope;
}

export const changeSetSelfServiceTable: readonly Row<ChangeSetSelfServiceAction>[] = [
  { action: 'withdraw', from: ['pending_review'], to: 'withdrawn', scope: 'change_sets:write' },
];

export const changeSetReviewTable: readonly Row<ChangeSetReviewAction>[] = [
  { action: 'approve', from: ['pending_review'], to: 'approved' },
  { action: 'reject', from: ['pending_review'], to: 'rejected' },
];

export function changeSetRow<A extends string>(table: readonly Row<A>[], action: A): Row<A> {
  return table.find((row) => row.action === action) as Row<A>;
}

export function changeSetRefusalOf(
  action: ChangeSetSelfServiceAction,
  record: ChangeSet,
  context: { scopes: ReadonlySet<string> },
): Refusal | undefined {
  const row = changeSetRow(changeSetSelfServiceTable, action);
  if (row.scope && !context.scopes.has(row.scope)) return scopeRefusal(row.scope);
  if (!row.from.includes(record.status)) return statusRefusal(action, record.status);
  return undefined;
}

export function checkChangeSet(
  action: ChangeSetSelfServiceAction,
  record: ChangeSet,
  context: { scopes: ReadonlySet<string> },
): AppError | undefined {
  const refusal = changeSetRefusalOf(action, record, context);
  return refusal && refusalError(refusal);
}

/** Allowed change-set actions and refused ones with their reasons, in one pass. */
export function evaluateChangeSetActions(
  record: ChangeSet,
  context: { scopes: ReadonlySet<string> },
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
