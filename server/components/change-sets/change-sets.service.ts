/**
 * Self-service change sets (docs/architecture.md §1.4): propose against an active registration, list, read, withdraw.
 * The registration is the lock that keeps one change set open: proposing sets its `pendingChangeSetId` in one
 * conditional write (no other open, status active, revision), so two concurrent proposals cannot both win; and
 * every decision on it (withdraw here, approve/reject in change-set-review.service.ts) commits by releasing that
 * lock in a write that carries the decision's audit entry (registration-commit.ts).
 */
import { apiError } from '../../errors.js';
import { isId, newId } from '../../ids.js';
import { validateBody } from '../../http/validate-body.js';
import type { PageQuery } from '../../db/keyset-page.js';
import { validateRegistration } from '../policy/validate-registration.js';
import type { Registration, RegistrationConfig } from '../registrations/registrations.model.js';
import {
  ACTION_REQUEST_SCHEMA,
  getRegistration,
  scopedIdempotencyKey,
} from '../registrations/registrations.service.js';
import type { ServiceDeps } from '../registrations/service-deps.js';
import { actionContextOf, type RequestContext } from '../registrations/request-context.js';
import { check, refusalError, selfServiceRow } from '../registrations/state-machine.js';
import { writeMissError } from '../registrations/write-miss.js';
import { commitRegistration } from '../registrations/registration-commit.js';
import { deliverAfterCommit } from '../outbox/outbox-delivery.js';
import { transitionEvents, type TransitionEffects } from '../outbox/transition-events.js';
import type { AuditEntry } from '../audit/audit.model.js';
import type { GrantRole } from '../grants/grants.model.js';
import {
  changeSetReviewTable,
  changeSetRow,
  changeSetSelfServiceTable,
  checkChangeSet,
  lockRefusal,
  type ChangeSetReviewAction,
  type ChangeSetSelfServiceAction,
} from './change-set-state-machine.js';
import type { ChangeSet, ChangeSetStatus } from './change-sets.model.js';
import { mergeConfig } from './merge-config.js';
import { changeSetEvent, decided } from './change-set-event.js';

export const CHANGE_SET_CREATE_SCHEMA = 'https://gatehouse.dev/schemas/api/change-set-create.schema.json';

const RETRIES_WITHOUT_IF_MATCH = 3;
/** Longer than any insert can take to land (maxTimeMS 5 s, socket timeout 10 s) and than an idempotency lease. */
const PHANTOM_LOCK_MS = 60_000;

/** The caller as a change-set action sees it: its scopes, its role and who it is. */
export function changeSetCaller(context: RequestContext): {
  scopes: ReadonlySet<string>;
  role: GrantRole;
  subject: string;
} {
  return { scopes: context.principal.scopes, role: context.role, subject: context.principal.sub };
}

export async function proposeChangeSet(
  deps: ServiceDeps,
  context: RequestContext,
  registrationId: string,
  body: unknown,
  revisionIn?: readonly number[],
  options: { idempotencyKey?: string } = {},
): Promise<ChangeSet> {
  const input = validateBody<{ changes: Partial<RegistrationConfig> }>(CHANGE_SET_CREATE_SCHEMA, body);
  const organizationId = context.organization.id;
  // A retry after an unknown outcome: the change set the first attempt made.
  const idempotencyKey =
    options.idempotencyKey === undefined ? undefined : scopedIdempotencyKey(context, options.idempotencyKey);
  const made = async () => {
    const existing =
      idempotencyKey === undefined
        ? null
        : await deps.store.changeSets.findByIdempotencyKey(organizationId, idempotencyKey);
    return existing && existing.registrationId === registrationId
      ? deliverAfterCommit(deps, 'changeSets', existing)
      : null;
  };
  const earlier = await made();
  if (earlier) return earlier;
  for (let attempt = 0; ; attempt += 1) {
    const read = await getRegistration(deps, context, registrationId);
    // A lock whose change set was never written (its insert failed with an unknown outcome and had not landed) is
    // free once no insert can still be on its way: a younger lock may be a proposal between its two writes.
    const phantom =
      read.pendingChangeSetId !== undefined &&
      deps.clock().getTime() - read.updatedAt.getTime() > PHANTOM_LOCK_MS &&
      !(await deps.store.changeSets.get(organizationId, registrationId, read.pendingChangeSetId));
    const registration: Registration = { ...read };
    if (phantom) delete registration.pendingChangeSetId;
    const refused = check('propose_change_set', registration, actionContextOf(context, deps.clock()));
    if (refused) throw refused;
    // The proposal must leave a compliant client: validate the config it would produce.
    const violations = validateRegistration({
      config: mergeConfig(registration.config, input.changes),
      clientType: registration.clientType,
      applicationType: registration.applicationType,
      policyProfileId: registration.policyProfileId,
      plan: context.organization.plan,
    }).map((f) => {
      const key = /^config\.([A-Za-z]+)/.exec(f.path)?.[1];
      return key !== undefined && key in input.changes ? { ...f, path: f.path.replace(/^config\./, 'changes.') } : f;
    });
    if (violations.length > 0) {
      throw apiError(
        'validation_failed',
        'The proposed config does not satisfy the policy profile and the platform policy.',
        {
          fields: violations,
        },
      );
    }
    const id = newId('cs');
    const locked = await deps.store.registrations.update(
      {
        organizationId,
        id: registrationId,
        statusIn: selfServiceRow('propose_change_set').from,
        revisionIn: revisionIn ?? [registration.revision],
        pendingChangeSetId: phantom ? read.pendingChangeSetId : null,
      },
      { pendingChangeSetId: id },
      deps.clock(),
    );
    if (!locked.ok) {
      if (revisionIn === undefined && locked.reason === 'stale_revision' && attempt < RETRIES_WITHOUT_IF_MATCH)
        continue;
      throw writeMissError(locked.reason, 'propose_change_set', locked.current, () =>
        apiError('conflict', 'Another change set is still pending review.'),
      );
    }
    const now = deps.clock();
    const record: ChangeSet = {
      id,
      registrationId,
      organizationId,
      status: 'pending_review',
      baseRevision: locked.record.revision,
      changes: input.changes,
      revision: 1,
      createdAt: now,
      updatedAt: now,
      createdBy: context.principal.sub,
      ...(idempotencyKey !== undefined && { idempotencyKey }),
    };
    // The proposal is acknowledged once the change set exists: its audit entry is written with it.
    const audit = changeSetAudit(record, {
      action: 'propose',
      actor: context.principal.sub,
      to: 'pending_review',
      now,
      revision: 1,
    });
    delete audit.from;
    const webhook = changeSetEvent('change_set.submitted', record, context.principal.sub, now);
    record.outbox = transitionEvents({ audit, webhook });
    record.outboxAt = now;
    try {
      const created = await deps.store.changeSets.create(record);
      if (!created.ok) {
        // A concurrent retry with the same key made it first: give our lock back (below) and answer with its.
        const concurrent = await made();
        if (concurrent) {
          await deps.store.registrations.update(
            { organizationId, id: registrationId, pendingChangeSetId: id },
            { pendingChangeSetId: null },
            deps.clock(),
          );
          return concurrent;
        }
        throw new Error('a freshly generated change-set id collided');
      }
      return await deliverAfterCommit(deps, 'changeSets', created.record);
    } catch (error) {
      // Give the lock back only when the change set surely does not exist: after an unknown outcome (the insert
      // may have landed) the lock stays, and the retry finds the change set, or treats the lock as a phantom.
      const landed = await deps.store.changeSets
        .get(organizationId, registrationId, id)
        .catch(() => 'unknown' as const);
      if (landed === null) {
        await deps.store.registrations.update(
          { organizationId, id: registrationId, pendingChangeSetId: id },
          { pendingChangeSetId: null },
          deps.clock(),
        );
      }
      throw error;
    }
  }
}

/** A change set with its registration (whose `pendingChangeSetId` decides what may happen to it). */
interface ChangeSetWithRegistration {
  changeSet: ChangeSet;
  registration: Registration;
}

export async function getChangeSet(
  deps: ServiceDeps,
  context: RequestContext,
  registrationId: string,
  id: string,
): Promise<ChangeSetWithRegistration> {
  const registration = await getRegistration(deps, context, registrationId);
  const changeSet = isId('cs', id)
    ? await deps.store.changeSets.get(context.organization.id, registrationId, id)
    : null;
  if (!changeSet) throw apiError('not_found', 'No such change set.');
  return { changeSet, registration };
}

/** One page plus one item (the caller trims it to find the next cursor), and the registration. */
export async function listChangeSets(
  deps: ServiceDeps,
  context: RequestContext,
  registrationId: string,
  query: PageQuery & { status?: ChangeSetStatus },
): Promise<{ items: ChangeSet[]; registration: Registration }> {
  const registration = await getRegistration(deps, context, registrationId);
  const items = await deps.store.changeSets.list({
    ...query,
    limit: query.limit + 1,
    organizationId: context.organization.id,
    registrationId,
  });
  return { items, registration };
}

/**
 * Withdraw commits by releasing the registration lock (conditional on this change set holding it), then closes the
 * change set: racing a reviewer's approval, exactly one of the two wins and the other gets 409.
 */
export async function withdrawChangeSet(
  deps: ServiceDeps,
  context: RequestContext,
  registrationId: string,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<ChangeSet> {
  validateBody(ACTION_REQUEST_SCHEMA, body);
  const { changeSet, registration } = await getChangeSet(deps, context, registrationId, id);
  const refused = checkChangeSet('withdraw', changeSet, {
    ...changeSetCaller(context),
    lockHolder: registration.pendingChangeSetId,
  });
  if (refused) throw refused;
  if (revisionIn !== undefined && !revisionIn.includes(changeSet.revision))
    throw writeMissError('stale_revision', 'withdraw', changeSet);
  const now = deps.clock();
  const audit = changeSetAudit(changeSet, {
    action: 'withdraw',
    actor: context.principal.sub,
    to: 'withdrawn',
    now,
    revision: changeSet.revision + 1,
  });
  const webhook = changeSetEvent(
    'change_set.withdrawn',
    decided(changeSet, 'withdrawn', now),
    context.principal.sub,
    now,
  );
  await releaseRegistrationLock(deps, registration, changeSet.id, now, { audit, webhook });
  return closeChangeSet(
    deps,
    { organizationId: context.organization.id, registrationId, id, revisionIn },
    'withdraw',
    undefined,
    now,
  );
}

/** The audit entry of a change-set transition, on the change set, with its registration so that history shows it. */
export function changeSetAudit(
  changeSet: ChangeSet,
  input: { action: string; actor: string; to: string; now: Date; revision: number; reason?: string },
): Omit<AuditEntry, 'id'> {
  return {
    organizationId: changeSet.organizationId,
    targetType: 'change_set',
    targetId: changeSet.id,
    registrationId: changeSet.registrationId,
    action: input.action,
    actor: input.actor,
    at: input.now,
    from: changeSet.status,
    to: input.to,
    revision: input.revision,
    ...(input.reason !== undefined && { reason: input.reason }),
  };
}

/**
 * Commits a decision on a pending change set: clears the registration's `pendingChangeSetId` if this change set
 * holds it, in one write carrying the decision's effects (built from the registration as read, e.g. its revision
 * after the write); 409 when the change set no longer holds it. Retried if the registration changed meanwhile.
 */
export async function releaseRegistrationLock(
  deps: ServiceDeps,
  registration: Registration,
  changeSetId: string,
  now: Date,
  effects: TransitionEffects | ((current: Registration) => TransitionEffects),
): Promise<Registration> {
  let current = registration;
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await commitRegistration(deps, {
      current,
      statusIn: [current.status],
      pendingChangeSetId: changeSetId,
      changes: { pendingChangeSetId: null },
      now,
      effects: [typeof effects === 'function' ? effects(current) : effects],
    });
    if (outcome.ok) return outcome.record;
    if (outcome.reason !== 'stale_revision' || !outcome.current || attempt >= RETRIES_WITHOUT_IF_MATCH)
      throw refusalError(lockRefusal());
    current = outcome.current;
  }
}

/** Moves a pending change set to the status `action` leads to (after its decision has committed on the registration). */
export async function closeChangeSet(
  deps: ServiceDeps,
  target: { organizationId: string; registrationId: string; id: string; revisionIn?: readonly number[] },
  action: ChangeSetSelfServiceAction | ChangeSetReviewAction,
  decidedBy: string | undefined,
  now: Date = deps.clock(),
): Promise<ChangeSet> {
  const row =
    action === 'withdraw'
      ? changeSetRow(changeSetSelfServiceTable, 'withdraw')
      : changeSetRow(changeSetReviewTable, action);
  const outcome = await deps.store.changeSets.update(
    { ...target, statusIn: row.from },
    { status: row.to, decidedAt: now, ...(decidedBy !== undefined && { decidedBy }) },
    now,
  );
  if (!outcome.ok) throw writeMissError(outcome.reason, action, outcome.current);
  return outcome.record;
}
