/**
 * Reviewer/admin decisions on a registration (docs/architecture.md §1.4), for the internal API and the console; no public
 * route reaches them. Each is one service function that commits like every self-service transition
 * (registration-commit.ts): the same table, one conditional write carrying its audit entry (with the reason) and
 * the provisioning step it implies. Nobody decides on what they submitted (separation of duties).
 */
import { apiError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ProvisioningStepKind } from '../provisioning/provisioning.model.js';
import { commitRegistration, provisioningStep, registrationAudit } from './registration-commit.js';
import { writeMissError } from './write-miss.js';
import { nextStatus, reviewRow, type ReviewAction } from './state-machine.js';
import type { Registration, RegistrationChanges } from './registrations.model.js';
import type { ServiceDeps } from './service-deps.js';
import type { WebhookEventType } from '../webhooks/webhooks.model.js';
import { recordAfter, registrationEvent } from './registration-event.js';

interface ReviewInput {
  organizationId: string;
  id: string;
  /** The reviewer's or admin's subject. */
  reviewer: string;
  /** Why: recorded in the audit entry (required for reject and request_changes by `decideRegistration`). */
  reason?: string;
  /** Strong If-Match revisions, when the reviewer's UI sends them. */
  revisionIn?: readonly number[];
  /**
   * Approve only: whether this service assigns the clientId. Default: when provisioning is not configured (with
   * provisioning the authorization server assigns it, RFC 7591 §3.2.1).
   */
  assignClientId?: boolean;
}

/** Decisions a reviewer (`gatehouse:review`) makes on a submission; the others are admin operations. */
export const REVIEW_DECISIONS = ['approve', 'reject', 'request_changes'] as const satisfies readonly ReviewAction[];
export const ADMIN_DECISIONS = ['suspend', 'unsuspend', 'deprecate'] as const satisfies readonly ReviewAction[];
/** Decisions refused without a reason: the requester must learn why. */
const REASON_REQUIRED: ReadonlySet<ReviewAction> = new Set(['reject', 'request_changes']);

/** The webhook event each decision emits. */
const REVIEW_EVENTS: Record<ReviewAction, WebhookEventType> = {
  approve: 'registration.approved',
  reject: 'registration.rejected',
  request_changes: 'registration.changes_requested',
  suspend: 'registration.suspended',
  unsuspend: 'registration.unsuspended',
  deprecate: 'registration.deprecated',
};

/** The step at the authorization server each decision implies (when provisioning is configured). */
const PROVISIONING: Partial<Record<ReviewAction, ProvisioningStepKind>> = { approve: 'register', deprecate: 'delete' };

export function separationOfDuties(): Error {
  return apiError('invalid_transition', 'A reviewer cannot decide on what they submitted (separation of duties).');
}

export function reasonRequired(action: string): Error {
  return apiError('validation_failed', `A reason is required to ${action.replace('_', ' ')}.`, {
    fields: [{ path: 'reason', message: 'is required' }],
  });
}

/** Review decisions on a submission (approve, reject, request changes) are never made by its submitter. */
const ownSubmission =
  (input: ReviewInput) =>
  (current: Registration): RegistrationChanges => {
    if (current.submittedBy === input.reviewer) throw separationOfDuties();
    return {};
  };

async function review(
  deps: ServiceDeps,
  action: ReviewAction,
  input: ReviewInput,
  extra: (current: Registration) => RegistrationChanges = () => ({}),
): Promise<Registration> {
  const current = await deps.store.registrations.get(input.organizationId, input.id);
  if (!current) throw apiError('not_found', 'No such registration.');
  const row = reviewRow(action);
  if (!row.from.includes(current.status)) throw writeMissError('invalid_status', action, current);
  if (input.revisionIn !== undefined && !input.revisionIn.includes(current.revision))
    throw writeMissError('stale_revision', action, current);
  const now = deps.clock();
  const to = nextStatus(row, current.status);
  const changes: RegistrationChanges = { status: to, decidedAt: now, decidedBy: input.reviewer, ...extra(current) };
  const step = PROVISIONING[action];
  const reason = input.reason?.trim() || undefined;
  const outcome = await commitRegistration(deps, {
    current,
    statusIn: row.from,
    changes,
    now,
    effects: [
      {
        audit: registrationAudit(current, { action, actor: input.reviewer, to, now, reason }),
        ...(step && deps.provisioning && { provisioning: provisioningStep(current, step) }),
        webhook: registrationEvent(REVIEW_EVENTS[action], recordAfter(current, changes, now), input.reviewer, now),
      },
    ],
  });
  if (!outcome.ok) throw writeMissError(outcome.reason, action, outcome.current);
  return outcome.record;
}

/** pending_review → active; assigns the `clientId` unless the authorization server will (kept when already set). */
function approveRegistration(deps: ServiceDeps, input: ReviewInput): Promise<Registration> {
  const assign = input.assignClientId ?? deps.provisioning === undefined;
  return review(deps, 'approve', input, (current) => {
    if (current.submittedBy === input.reviewer) throw separationOfDuties();
    return current.clientId === undefined && assign ? { clientId: newId('client') } : {};
  });
}

const rejectRegistration = (deps: ServiceDeps, input: ReviewInput) =>
  review(deps, 'reject', input, ownSubmission(input));
const requestChanges = (deps: ServiceDeps, input: ReviewInput) =>
  review(deps, 'request_changes', input, ownSubmission(input));
const suspendRegistration = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'suspend', input);
const unsuspendRegistration = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'unsuspend', input);
const deprecateRegistration = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'deprecate', input);

const decisions: Record<ReviewAction, (deps: ServiceDeps, input: ReviewInput) => Promise<Registration>> = {
  approve: approveRegistration,
  reject: rejectRegistration,
  request_changes: requestChanges,
  suspend: suspendRegistration,
  unsuspend: unsuspendRegistration,
  deprecate: deprecateRegistration,
};

/** A decision by name, as the internal API and the console call it; reject and request_changes need a reason. */
export function decideRegistration(deps: ServiceDeps, action: ReviewAction, input: ReviewInput): Promise<Registration> {
  if (REASON_REQUIRED.has(action) && !input.reason?.trim()) return Promise.reject(reasonRequired(action));
  return decisions[action](deps, input);
}
