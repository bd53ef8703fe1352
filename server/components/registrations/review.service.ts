/**
 * Reviewer/admin transitions (DESIGN.md §1.4): service functions for the internal surface and for tests. No public
 * route reaches them. They use the same table as self-service, the same conditional writes, and enforce separation
 * of duties: nobody approves what they submitted or proposed.
 */
import { apiError } from '../../errors.js';
import { newId } from '../../ids.js';
import { writeMissError } from './write-miss.js';
import { nextStatus, refusalError, reviewRow, type ReviewAction } from './state-machine.js';
import type { Registration, RegistrationChanges } from './registrations.model.js';
import type { ServiceDeps } from './registrations.service.js';
import type { ChangeSet } from '../change-sets/change-sets.model.js';
import { changeSetRow, changeSetReviewTable, lockRefusal } from '../change-sets/change-set-state-machine.js';
import { mergeConfig } from '../change-sets/merge-config.js';
import { closeChangeSet, releaseRegistrationLock } from '../change-sets/change-sets.service.js';

export interface ReviewInput {
  organizationId: string;
  id: string;
  /** The reviewer's subject. */
  reviewer: string;
  /** Strong If-Match revisions, when the reviewer's UI sends them. */
  revisionIn?: readonly number[];
  /** Approve only: false when the authorization server assigns the clientId (provisioning, RFC 7591 §3.2.1). */
  assignClientId?: boolean;
}

export interface ChangeSetReviewInput {
  organizationId: string;
  registrationId: string;
  changeSetId: string;
  reviewer: string;
}

function separationOfDuties(): Error {
  return apiError('invalid_transition', 'A reviewer cannot decide on what they submitted (separation of duties).');
}

/** Review decisions on a submission (approve, reject, request changes) are never made by its submitter. */
const ownSubmission = (input: ReviewInput) => (current: Registration): RegistrationChanges => {
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
  const now = deps.clock();
  const outcome = await deps.store.registrations.update(
    { organizationId: input.organizationId, id: input.id, statusIn: row.from, revisionIn: input.revisionIn ?? [current.revision] },
    { status: nextStatus(row, current.status), decidedAt: now, decidedBy: input.reviewer, ...extra(current) },
    now,
  );
  if (!outcome.ok) throw writeMissError(outcome.reason, action, outcome.current);
  return outcome.record;
}

/** pending_review → active; assigns the `clientId` (kept when an imported record already has one). */
export function approveRegistration(deps: ServiceDeps, input: ReviewInput): Promise<Registration> {
  return review(deps, 'approve', input, (current) => {
    if (current.submittedBy === input.reviewer) throw separationOfDuties();
    return current.clientId === undefined && input.assignClientId !== false ? { clientId: newId('client') } : {};
  });
}

export const rejectRegistration = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'reject', input, ownSubmission(input));
export const requestChanges = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'request_changes', input, ownSubmission(input));
export const suspendRegistration = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'suspend', input);
export const unsuspendRegistration = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'unsuspend', input);
export const deprecateRegistration = (deps: ServiceDeps, input: ReviewInput) => review(deps, 'deprecate', input);

async function pendingChangeSet(deps: ServiceDeps, input: ChangeSetReviewInput, action: 'approve' | 'reject'): Promise<ChangeSet> {
  const changeSet = await deps.store.changeSets.get(input.organizationId, input.registrationId, input.changeSetId);
  if (!changeSet) throw apiError('not_found', 'No such change set.');
  if (!changeSetRow(changeSetReviewTable, action).from.includes(changeSet.status)) {
    throw writeMissError('invalid_status', action, changeSet);
  }
  return changeSet;
}

/**
 * Applies the change to the registration in one conditional write (revision must still be `baseRevision`, the
 * registration must still hold this change set's lock), then closes the change set. Ordered single-document steps
 * instead of a transaction (DESIGN.md §1.9): the registration write is the commit point.
 */
export async function approveChangeSet(deps: ServiceDeps, input: ChangeSetReviewInput): Promise<ChangeSet> {
  const changeSet = await pendingChangeSet(deps, input, 'approve');
  if (changeSet.createdBy === input.reviewer) throw separationOfDuties();
  const registration = await deps.store.registrations.get(input.organizationId, input.registrationId);
  if (!registration) throw apiError('not_found', 'No such registration.');
  const stale = () => apiError('conflict', 'The registration changed after this change set was proposed; it must be proposed again.');
  if (registration.revision !== changeSet.baseRevision) throw stale();
  const applied = await deps.store.registrations.update(
    {
      organizationId: input.organizationId,
      id: input.registrationId,
      statusIn: ['active'],
      revisionIn: [changeSet.baseRevision],
      pendingChangeSetId: changeSet.id,
    },
    { config: mergeConfig(registration.config, changeSet.changes), pendingChangeSetId: null },
    deps.clock(),
  );
  if (!applied.ok) {
    if (applied.reason === 'stale_revision') throw stale();
    throw applied.reason === 'guard_failed' ? refusalError(lockRefusal()) : writeMissError(applied.reason, 'approve', applied.current);
  }
  return closeChangeSet(deps, target(input), 'approve', input.reviewer);
}

/** Reject commits by releasing the registration lock (so it cannot race an approval), then closes the change set. */
export async function rejectChangeSet(deps: ServiceDeps, input: ChangeSetReviewInput): Promise<ChangeSet> {
  const changeSet = await pendingChangeSet(deps, input, 'reject');
  if (changeSet.createdBy === input.reviewer) throw separationOfDuties();
  if (!(await releaseRegistrationLock(deps, input.organizationId, input.registrationId, input.changeSetId))) throw refusalError(lockRefusal());
  return closeChangeSet(deps, target(input), 'reject', input.reviewer);
}

function target(input: ChangeSetReviewInput) {
  return { organizationId: input.organizationId, registrationId: input.registrationId, id: input.changeSetId };
}
