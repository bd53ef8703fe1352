/**
 * Reviewer/admin decisions on a registration (DESIGN.md §1.4) as the internal API and the console call them:
 * the transition (review.service: same table, conditional write, separation of duties), then its audit entry,
 * then the provisioning step it implies. Reject and request-changes need a reason.
 */
import { apiError } from '../../errors.js';
import type { Registration } from '../../components/registrations/registrations.model.js';
import {
  approveRegistration,
  deprecateRegistration,
  rejectRegistration,
  requestChanges,
  suspendRegistration,
  unsuspendRegistration,
  type ReviewInput,
} from '../../components/registrations/review.service.js';
import type { ReviewAction } from '../../components/registrations/state-machine.js';
import type { ServiceDeps } from '../../components/registrations/registrations.service.js';
import type { InternalServiceDeps } from '../internal-deps.js';

/** Decisions a reviewer (`gatehouse:review`) makes on a submission; the others are admin operations. */
export const REVIEW_DECISIONS = ['approve', 'reject', 'request_changes'] as const satisfies readonly ReviewAction[];
export const ADMIN_DECISIONS = ['suspend', 'unsuspend', 'deprecate'] as const satisfies readonly ReviewAction[];
/** Decisions refused without a reason: the requester must learn why. */
export const REASON_REQUIRED: ReadonlySet<ReviewAction> = new Set(['reject', 'request_changes']);

const transitions: Record<ReviewAction, (deps: ServiceDeps, input: ReviewInput) => Promise<Registration>> = {
  approve: approveRegistration,
  reject: rejectRegistration,
  request_changes: requestChanges,
  suspend: suspendRegistration,
  unsuspend: unsuspendRegistration,
  deprecate: deprecateRegistration,
};

export interface RegistrationDecisionInput {
  action: ReviewAction;
  organizationId: string;
  id: string;
  /** The reviewer's or admin's subject. */
  actor: string;
  reason?: string;
  /** Strong If-Match revisions, when the caller sends them. */
  revisionIn?: readonly number[];
}

export function reasonRequired(action: string): Error {
  return apiError('validation_failed', `A reason is required to ${action.replace('_', ' ')}.`, {
    fields: [{ path: 'reason', message: 'is required' }],
  });
}

export async function decideRegistration(deps: InternalServiceDeps, input: RegistrationDecisionInput): Promise<Registration> {
  const reason = input.reason?.trim() || undefined;
  if (REASON_REQUIRED.has(input.action) && !reason) throw reasonRequired(input.action);
  const before = await deps.store.registrations.get(input.organizationId, input.id);
  if (!before) throw apiError('not_found', 'No such registration.');
  const after = await transitions[input.action](deps, {
    organizationId: input.organizationId,
    id: input.id,
    reviewer: input.actor,
    // Conditional on the revision read above, so `from` in the audit entry is the status the write replaced.
    revisionIn: input.revisionIn ?? [before.revision],
    // With provisioning the authorization server assigns the clientId when it registers the client.
    assignClientId: deps.provisioning === undefined,
  });
  await deps.store.audit.append({
    organizationId: after.organizationId,
    targetType: 'registration',
    targetId: after.id,
    action: input.action,
    actor: input.actor,
    at: after.updatedAt,
    from: before.status,
    to: after.status,
    revision: after.revision,
    reason,
  });
  if (deps.provisioning && (input.action === 'approve' || input.action === 'deprecate')) {
    const kind = input.action === 'approve' ? 'register' : 'delete';
    await deps.provisioning.enqueue({ kind, organizationId: after.organizationId, registrationId: after.id, revision: after.revision });
  }
  return after;
}
