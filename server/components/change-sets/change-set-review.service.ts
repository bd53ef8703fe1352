/**
 * Reviewer decisions on a change set (docs/architecture.md §1.4), for the internal API and the console. Approve applies the
 * change to the registration in one conditional write (its revision must still be `baseRevision`, else 409
 * `conflict`) that releases the registration's lock and carries the audit entry and the RFC 7592 update step;
 * reject releases the lock with its audit entry. Then the change set is closed. Ordered single-document steps, no
 * transaction (docs/architecture.md §1.9): the registration write is the commit point. Nobody decides on their own proposal.
 */
import { apiError } from '../../errors.js';
import { reasonRequired, separationOfDuties } from '../registrations/review.service.js';
import { commitRegistration, provisioningStep } from '../registrations/registration-commit.js';
import type { Registration } from '../registrations/registrations.model.js';
import type { ServiceDeps } from '../registrations/service-deps.js';
import { refusalError } from '../registrations/state-machine.js';
import { writeMissError } from '../registrations/write-miss.js';
import {
  changeSetReviewTable,
  changeSetRow,
  lockRefusal,
  type ChangeSetReviewAction,
} from './change-set-state-machine.js';
import type { ChangeSet } from './change-sets.model.js';
import { changeSetAudit, closeChangeSet, releaseRegistrationLock } from './change-sets.service.js';
import { mergeConfig } from './merge-config.js';
import { changeSetEvent, decided } from './change-set-event.js';

interface ChangeSetReviewInput {
  organizationId: string;
  registrationId: string;
  changeSetId: string;
  reviewer: string;
  /** Why: recorded in the audit entry (required to reject, by `decideChangeSet`). */
  reason?: string;
}

interface Pending {
  changeSet: ChangeSet;
  registration: Registration;
}

async function pending(
  deps: ServiceDeps,
  input: ChangeSetReviewInput,
  action: ChangeSetReviewAction,
): Promise<Pending> {
  const changeSet = await deps.store.changeSets.get(input.organizationId, input.registrationId, input.changeSetId);
  if (!changeSet) throw apiError('not_found', 'No such change set.');
  if (!changeSetRow(changeSetReviewTable, action).from.includes(changeSet.status))
    throw writeMissError('invalid_status', action, changeSet);
  if (changeSet.createdBy === input.reviewer) throw separationOfDuties();
  const registration = await deps.store.registrations.get(input.organizationId, input.registrationId);
  if (!registration) throw apiError('not_found', 'No such registration.');
  return { changeSet, registration };
}

const target = (input: ChangeSetReviewInput) => ({
  organizationId: input.organizationId,
  registrationId: input.registrationId,
  id: input.changeSetId,
});

async function approveChangeSet(deps: ServiceDeps, input: ChangeSetReviewInput): Promise<ChangeSet> {
  const { changeSet, registration } = await pending(deps, input, 'approve');
  const stale = () =>
    apiError('conflict', 'The registration changed after this change set was proposed; it must be proposed again.');
  if (registration.revision !== changeSet.baseRevision) throw stale();
  const now = deps.clock();
  const audit = changeSetAudit(changeSet, {
    action: 'approve',
    actor: input.reviewer,
    to: 'approved',
    now,
    // The registration's revision after the decision: the change applies at this revision.
    revision: registration.revision + 1,
    reason: input.reason?.trim() || undefined,
  });
  const applied = await commitRegistration(deps, {
    current: registration,
    statusIn: ['active'],
    pendingChangeSetId: changeSet.id,
    changes: { config: mergeConfig(registration.config, changeSet.changes), pendingChangeSetId: null },
    now,
    effects: [
      {
        audit,
        ...(deps.provisioning && { provisioning: provisioningStep(registration, 'update') }),
        webhook: changeSetEvent(
          'change_set.approved',
          decided(changeSet, 'approved', now, input.reviewer),
          input.reviewer,
          now,
        ),
      },
    ],
  });
  if (!applied.ok) {
    if (applied.reason === 'stale_revision') throw stale();
    throw applied.reason === 'guard_failed'
      ? refusalError(lockRefusal())
      : writeMissError(applied.reason, 'approve', applied.current);
  }
  return closeChangeSet(deps, target(input), 'approve', input.reviewer, now);
}

async function rejectChangeSet(deps: ServiceDeps, input: ChangeSetReviewInput): Promise<ChangeSet> {
  const { changeSet, registration } = await pending(deps, input, 'reject');
  const now = deps.clock();
  const reason = input.reason?.trim() || undefined;
  await releaseRegistrationLock(deps, registration, changeSet.id, now, (current) => ({
    audit: changeSetAudit(changeSet, {
      action: 'reject',
      actor: input.reviewer,
      to: 'rejected',
      now,
      revision: current.revision + 1,
      reason,
    }),
    webhook: changeSetEvent(
      'change_set.rejected',
      decided(changeSet, 'rejected', now, input.reviewer),
      input.reviewer,
      now,
    ),
  }));
  return closeChangeSet(deps, target(input), 'reject', input.reviewer, now);
}

/** A decision by name, as the internal API and the console call it; rejecting needs a reason. */
export function decideChangeSet(
  deps: ServiceDeps,
  action: ChangeSetReviewAction,
  input: ChangeSetReviewInput,
): Promise<ChangeSet> {
  if (action === 'reject' && !input.reason?.trim()) return Promise.reject(reasonRequired('reject'));
  return action === 'approve' ? approveChangeSet(deps, input) : rejectChangeSet(deps, input);
}
