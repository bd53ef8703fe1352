/**
 * Reviewer decisions on a change set (DESIGN.md §1.4): approve applies it to the registration (refused with 409
 * `conflict` when its `baseRevision` is stale), reject closes it. Each is audited on the change set, with the
 * registration's id so the registration's history shows it; an approval enqueues the RFC 7592 update.
 */
import { apiError } from '../../errors.js';
import type { ChangeSet } from '../../components/change-sets/change-sets.model.js';
import { approveChangeSet, rejectChangeSet } from '../../components/registrations/review.service.js';
import type { InternalServiceDeps } from '../internal-deps.js';
import { reasonRequired } from './registration-decisions.js';

export interface ChangeSetDecisionInput {
  action: 'approve' | 'reject';
  organizationId: string;
  registrationId: string;
  changeSetId: string;
  actor: string;
  reason?: string;
}

export async function decideChangeSet(deps: InternalServiceDeps, input: ChangeSetDecisionInput): Promise<ChangeSet> {
  const reason = input.reason?.trim() || undefined;
  if (input.action === 'reject' && !reason) throw reasonRequired('reject');
  const target = { organizationId: input.organizationId, registrationId: input.registrationId, changeSetId: input.changeSetId, reviewer: input.actor };
  const changeSet = input.action === 'approve' ? await approveChangeSet(deps, target) : await rejectChangeSet(deps, target);
  const registration = await deps.store.registrations.get(input.organizationId, input.registrationId);
  if (!registration) throw apiError('not_found', 'No such registration.');
  await deps.store.audit.append({
    organizationId: changeSet.organizationId,
    targetType: 'change_set',
    targetId: changeSet.id,
    registrationId: changeSet.registrationId,
    action: input.action,
    actor: input.actor,
    at: changeSet.decidedAt ?? deps.clock(),
    from: 'pending_review',
    to: changeSet.status,
    // The registration's revision after the decision (an approval applied the change at this revision).
    revision: registration.revision,
    reason,
  });
  if (deps.provisioning && input.action === 'approve') {
    await deps.provisioning.enqueue({
      kind: 'update',
      organizationId: registration.organizationId,
      registrationId: registration.id,
      revision: registration.revision,
    });
  }
  return changeSet;
}
