/**
 * The ONE table of registration transitions (docs/architecture.md §1.4). Endpoints authorize with `check`, responses list
 * what `evaluateActions` allows, and the reviewer service uses the same rows, so what `actions` promises is what
 * endpoints do.
 */
import type { AppError } from '../../../lib/app-error.js';
import { apiError, type ErrorCode } from '../../errors.js';
import { insufficientScope as bearerInsufficientScope } from '../../middleware/bearer-errors.js';
import type { Scope } from '../../principal.js';
import type { GrantRole } from '../grants/grants.model.js';
import type { Registration, RegistrationStatus } from './registrations.model.js';
import { hasPreviousSecret, isRevealable, ROTATION_IN_FLIGHT_MS } from '../provisioning/client-secret.model.js';

const SELF_SERVICE_ACTIONS = [
  'edit',
  'submit',
  'withdraw',
  'delete',
  'propose_change_set',
  'reveal_secret',
  'rotate_secret',
  'retire_previous_secret',
] as const;
export type SelfServiceAction = (typeof SELF_SERVICE_ACTIONS)[number];

/** Reviewer/admin actions: rows of `reviewTable`, never in `actions`. */
export type ReviewAction = 'approve' | 'reject' | 'request_changes' | 'suspend' | 'unsuspend' | 'deprecate';

/**
 * What the caller brings to a self-service action: scopes from the token, its role in the organization (its grant)
 * and who it is (a developer acts on what it created), gates from the organization's plan.
 */
export interface ActionContext {
  scopes: ReadonlySet<string>;
  changeSetsAllowed: boolean;
  role: GrantRole;
  subject: string;
  /** The service's clock: a secret waits to be revealed, and a previous secret works, until a time. */
  now: Date;
}

/**
 * Why an action is refused: a plain value, so computing `actions` for a list never builds Error objects (stack
 * traces are not free); it becomes an AppError only when an endpoint refuses.
 */
export interface Refusal {
  code: ErrorCode;
  message: string;
  /** The missing scope, for the RFC 6750 challenge. */
  scope?: Scope;
}

type Guard = (record: Registration, context: ActionContext) => Refusal | undefined;

interface Row<A extends string> {
  action: A;
  from: readonly RegistrationStatus[];
  /** The status after the action; `same` keeps it, `removed` deletes the record. */
  to: RegistrationStatus | 'same' | 'removed';
  scope?: Scope;
  /**
   * Who may act besides an owner (who may do everything; a viewer only reads): `own` lets a developer act on the
   * registrations it created. Absent: owners only.
   */
  developer?: 'own';
  /** Checked after scope, role and status, in order. */
  guards?: Guard[];
}

const changeSetsInPlan: Guard = (_record, context) =>
  context.changeSetsAllowed
    ? undefined
    : { code: 'plan_restricted', message: "The organization's plan does not include change sets." };

const noOpenChangeSet: Guard = (record) =>
  record.pendingChangeSetId === undefined
    ? undefined
    : { code: 'conflict', message: `Change set ${record.pendingChangeSetId} is still pending review.` };

// Public clients have no secret (RFC 6749 §2.1).
const confidentialOnly: Guard = (record) =>
  record.clientType === 'confidential'
    ? undefined
    : { code: 'invalid_transition', message: 'Only confidential clients have a client secret.' };

// The secret is the authorization server's: only one this service registered (or rotated) is followed here.
const secretManaged: Guard = (record) =>
  record.secret !== undefined
    ? undefined
    : {
        code: 'conflict',
        message:
          record.clientId === undefined
            ? 'The client is not registered at the authorization server yet (provisioning is pending).'
            : 'This client has no secret managed by this service: it authenticates without one, or it was not registered at the authorization server by this service.',
      };

const secretRevealable: Guard = (record, context) => {
  if (isRevealable(record.secret, context.now)) return undefined;
  const revealed = record.secret?.revealedAt;
  return {
    code: 'conflict',
    message: revealed
      ? `The current secret was revealed at ${revealed.toISOString()}; rotate it to get a new one.`
      : 'The current secret was not revealed within 7 days of being issued and was discarded; rotate it to get a new one.',
  };
};

// Two rotations at once would push two secrets: the second waits until the first is recorded (or left behind).
const noRotationInFlight: Guard = (record, context) => {
  const pending = record.secret?.pending;
  return pending && context.now.getTime() - pending.startedAt.getTime() < ROTATION_IN_FLIGHT_MS
    ? { code: 'conflict', message: 'A rotation of this secret is in progress; read the registration again shortly.' }
    : undefined;
};

const previousSecretHeld: Guard = (record, context) =>
  hasPreviousSecret(record.secret, context.now)
    ? undefined
    : { code: 'conflict', message: 'No previous secret is working: there is nothing to retire.' };

/** Statuses in which the client exists at the authorization server with its secret (an incident may suspend it first). */
const SECRET_STATUSES: readonly RegistrationStatus[] = ['active', 'suspended'];

const selfServiceTable: readonly Row<SelfServiceAction>[] = [
  { action: 'edit', from: ['draft', 'changes_requested'], to: 'same', scope: 'registrations:write', developer: 'own' },
  {
    action: 'submit',
    from: ['draft', 'changes_requested'],
    to: 'pending_review',
    scope: 'registrations:write',
    developer: 'own',
  },
  { action: 'withdraw', from: ['pending_review'], to: 'draft', scope: 'registrations:write', developer: 'own' },
  // A developer cleans up its own drafts and rejected attempts; deleting someone else's work is an owner's call.
  { action: 'delete', from: ['draft', 'rejected'], to: 'removed', scope: 'registrations:write', developer: 'own' },
  {
    action: 'propose_change_set',
    from: ['active'],
    to: 'same',
    scope: 'change_sets:write',
    developer: 'own',
    guards: [changeSetsInPlan, noOpenChangeSet],
  },
  // Owners only (no `developer`). A secret's writes leave the revision alone, so a pending change set stays valid.
  {
    action: 'reveal_secret',
    from: SECRET_STATUSES,
    to: 'same',
    scope: 'registrations:write',
    guards: [confidentialOnly, secretManaged, secretRevealable],
  },
  {
    action: 'rotate_secret',
    from: SECRET_STATUSES,
    to: 'same',
    scope: 'registrations:write',
    guards: [confidentialOnly, secretManaged, noRotationInFlight],
  },
  {
    action: 'retire_previous_secret',
    from: SECRET_STATUSES,
    to: 'same',
    scope: 'registrations:write',
    guards: [confidentialOnly, secretManaged, previousSecretHeld],
  },
];

/** Reviewer/admin rows: reachable only through review.service.ts, never through a public route. */
export const reviewTable: readonly Row<ReviewAction>[] = [
  { action: 'approve', from: ['pending_review'], to: 'active' },
  { action: 'reject', from: ['pending_review'], to: 'rejected' },
  { action: 'request_changes', from: ['pending_review'], to: 'changes_requested' },
  { action: 'suspend', from: ['active'], to: 'suspended' },
  { action: 'unsuspend', from: ['suspended'], to: 'active' },
  { action: 'deprecate', from: ['active', 'suspended'], to: 'deprecated' },
];

/**
 * The statuses a registration can hold before its first approval (reachable from `draft` without `approve`, the
 * one row into `active`). No row leads back into them, and provisioning starts with the approval, so a record in one
 * of these has never had a provisioning step: its provisioning status is known without a query.
 */
export const PRE_APPROVAL_STATUSES: ReadonlySet<RegistrationStatus> = (() => {
  const reached = new Set<RegistrationStatus>(['draft']);
  const rows = [...selfServiceTable, ...reviewTable].filter((row) => row.action !== 'approve');
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (row.to === 'same' || row.to === 'removed' || reached.has(row.to)) continue;
      if (row.from.some((status) => reached.has(status))) {
        reached.add(row.to);
        grew = true;
      }
    }
  }
  return reached;
})();

export function selfServiceRow(action: SelfServiceAction): Row<SelfServiceAction> {
  return selfServiceTable.find((row) => row.action === action) as Row<SelfServiceAction>;
}

export function reviewRow(action: ReviewAction): Row<ReviewAction> {
  return reviewTable.find((row) => row.action === action) as Row<ReviewAction>;
}

/** 403 with the RFC 6750 §3.1 challenge, the same as the route-level scope check. */
function insufficientScope(scope: Scope): AppError {
  return bearerInsufficientScope(scope);
}

export function invalidTransition(action: string, status: string): AppError {
  return apiError('invalid_transition', `The action ${action} is not allowed while the status is ${status}.`);
}

/**
 * Why the caller's role does not allow `action` on a record created by `createdBy`, or undefined when it does:
 * owners may do everything, viewers only read, developers what `developer` says (on their own records). `record`
 * names the kind of record in the messages when it is not a registration (`change set`).
 */
export function roleRefusal(
  action: string,
  developer: 'own' | undefined,
  createdBy: string,
  context: Pick<ActionContext, 'role' | 'subject'>,
  record?: string,
): Refusal | undefined {
  if (context.role === 'owner') return undefined;
  const verb = action.replace(/_/g, ' ');
  const what = record ? `${verb} ${record}` : verb;
  if (context.role === 'viewer')
    return {
      code: 'forbidden',
      message: `Your role in this organization (viewer) only reads; ${what} needs developer or owner.`,
    };
  if (developer === 'own' && createdBy === context.subject) return undefined;
  return {
    code: 'forbidden',
    message:
      developer === 'own'
        ? `A developer may ${verb} only ${record ? `${record}s` : 'registrations'} it created; this one was created by another subject (ask an owner).`
        : `Only an owner of this organization may ${what}.`,
  };
}

export function scopeRefusal(scope: Scope): Refusal {
  return { code: 'insufficient_scope', message: `The access token lacks the scope ${scope}.`, scope };
}

export function statusRefusal(action: string, status: string): Refusal {
  return { code: 'invalid_transition', message: `The action ${action} is not allowed while the status is ${status}.` };
}

/** The error an endpoint answers for a refusal (insufficient scope carries its `WWW-Authenticate` challenge). */
export function refusalError(refusal: Refusal): AppError {
  return refusal.code === 'insufficient_scope' && refusal.scope
    ? insufficientScope(refusal.scope)
    : apiError(refusal.code, refusal.message);
}

/**
 * Why `action` is refused for this record and caller now, in the order scope → role → status → guards; undefined
 * when allowed.
 */
function refusalOf(action: SelfServiceAction, record: Registration, context: ActionContext): Refusal | undefined {
  const row = selfServiceRow(action);
  if (row.scope && !context.scopes.has(row.scope)) return scopeRefusal(row.scope);
  const role = roleRefusal(action, row.developer, record.createdBy, context);
  if (role) return role;
  if (!row.from.includes(record.status)) return statusRefusal(action, record.status);
  for (const guard of row.guards ?? []) {
    const refusal = guard(record, context);
    if (refusal) return refusal;
  }
  return undefined;
}

/** `refusalOf` as the AppError the endpoint throws; undefined when the action is allowed. */
export function check(action: SelfServiceAction, record: Registration, context: ActionContext): AppError | undefined {
  const refusal = refusalOf(action, record, context);
  return refusal && refusalError(refusal);
}

/** A self-service action refused now, with the code and message its endpoint would answer (explainable actions). */
export interface BlockedAction<A extends string = SelfServiceAction> {
  action: A;
  code: string;
  message: string;
}

/** Splits the self-service actions into allowed ones (`actions`) and refused ones with their reasons, in one pass. */
export function evaluateActions(
  record: Registration,
  context: ActionContext,
): { actions: SelfServiceAction[]; blockedActions: BlockedAction[] } {
  const actions: SelfServiceAction[] = [];
  const blocked: BlockedAction[] = [];
  for (const action of SELF_SERVICE_ACTIONS) {
    const refusal = refusalOf(action, record, context);
    if (refusal) blocked.push({ action, code: refusal.code, message: refusal.message });
    else actions.push(action);
  }
  return { actions, blockedActions: blocked };
}

/** The status `action` leads to from `status` (for rows whose `to` is `same`, the status itself). */
export function nextStatus(row: Row<string>, status: RegistrationStatus): RegistrationStatus {
  if (row.to === 'removed') throw new Error(`${row.action} removes the record`);
  return row.to === 'same' ? status : row.to;
}
