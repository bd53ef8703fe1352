/**
 * Self-service registration operations (docs/architecture.md §1.4). Every input is validated here, not only in routes, and
 * every transition is one conditional write carrying its audit entry (registration-commit.ts) whose miss becomes
 * 404 / 409 / 412.
 */
import { apiError } from '../../errors.js';
import { isId, newId } from '../../ids.js';
import { planFor } from '../../plans.js';
import { validateBody } from '../../http/validate-body.js';
import { validateRegistration } from '../policy/validate-registration.js';
import type { PageQuery } from '../../db/keyset-page.js';
import type {
  ApplicationType,
  ClientType,
  Registration,
  RegistrationChanges,
  RegistrationConfig,
  RegistrationStatus,
} from './registrations.model.js';
import { actionContextOf, type RequestContext } from './request-context.js';
import { check, refusalError, roleRefusal, selfServiceRow, type SelfServiceAction } from './state-machine.js';
import { resolveTemplate } from './template-defaults.js';
import { writeMissError } from './write-miss.js';
import { transitionEvents } from '../outbox/transition-events.js';
import { deliverAfterCommit, outboxDelivery, withoutOutbox } from '../outbox/outbox-delivery.js';
import { commitRegistration, registrationAudit } from './registration-commit.js';
import type { ServiceDeps } from './service-deps.js';
import type { WebhookEventType } from '../webhooks/webhooks.model.js';
import { recordAfter, registrationEvent } from './registration-event.js';

const SCHEMAS = 'https://gatehouse.dev/schemas/api';
export const REGISTRATION_CREATE_SCHEMA = `${SCHEMAS}/registration-create.schema.json`;
export const REGISTRATION_UPDATE_SCHEMA = `${SCHEMAS}/registration-update.schema.json`;
export const ACTION_REQUEST_SCHEMA = `${SCHEMAS}/action-request.schema.json`;

export interface RegistrationCreateInput {
  name: string;
  description?: string;
  clientType?: ClientType;
  applicationType?: ApplicationType;
  policyProfileId?: string;
  templateId?: string;
  config?: RegistrationConfig;
}

type RegistrationUpdateInput = Partial<
  Pick<Registration, 'name' | 'description' | 'clientType' | 'applicationType' | 'policyProfileId' | 'config'>
>;

/** The webhook event each self-service transition emits (an edit emits none). */
const SELF_SERVICE_EVENTS: Partial<Record<SelfServiceAction, WebhookEventType>> = {
  submit: 'registration.submitted',
  withdraw: 'registration.withdrawn',
  delete: 'registration.deleted',
};

/** Writes whose precondition the service chose itself (no If-Match) are retried this often after a concurrent change. */
const RETRIES_WITHOUT_IF_MATCH = 3;

/** The stored form of an Idempotency-Key: unique per organization and subject. */
export function scopedIdempotencyKey(context: RequestContext, key: string): string {
  return JSON.stringify([context.organization.id, context.principal.sub, key]);
}

/**
 * Creates a draft. With an Idempotency-Key the record carries it (unique per organization and subject), so a
 * retry after an unknown outcome returns the record the first attempt made instead of a second one.
 */
export async function createRegistration(
  deps: ServiceDeps,
  context: RequestContext,
  body: unknown,
  options: { idempotencyKey?: string } = {},
): Promise<Registration> {
  // A viewer only reads; a developer or an owner creates (the creator is who a developer's later actions need).
  const role = roleRefusal('create', 'own', context.principal.sub, actionContextOf(context, deps.clock()));
  if (role) throw refusalError(role);
  const input = validateBody<RegistrationCreateInput>(REGISTRATION_CREATE_SCHEMA, body);
  const template = input.templateId === undefined ? undefined : resolveTemplate(input.templateId);
  const now = deps.clock();
  const clientType = input.clientType ?? template?.clientType;
  const applicationType = input.applicationType ?? template?.applicationType;
  const policyProfileId = input.policyProfileId ?? template?.policyProfileId;
  if (!clientType || !applicationType || !policyProfileId)
    throw new Error('schema guarantees these with or without a template');
  const record: Registration = {
    id: newId('reg'),
    organizationId: context.organization.id,
    name: input.name,
    description: input.description ?? '',
    clientType,
    applicationType,
    policyProfileId,
    ...(input.templateId !== undefined && { templateId: input.templateId }),
    config: { ...(template?.defaults ?? {}), ...(input.config ?? {}) },
    status: 'draft',
    revision: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: context.principal.sub,
    ...(options.idempotencyKey !== undefined && {
      idempotencyKey: scopedIdempotencyKey(context, options.idempotencyKey),
    }),
  };
  const audit = registrationAudit(record, {
    action: 'create',
    actor: context.principal.sub,
    to: 'draft',
    now,
    revision: 1,
  });
  delete audit.from;
  record.outbox = transitionEvents({ audit });
  record.outboxAt = now;
  const max = planFor(context.organization.plan).maxRegistrations;
  const outcome = await deps.store.registrations.create(record, {
    maxInOrganization: max,
    deliver: outboxDelivery(deps),
  });
  if (!outcome.ok) {
    if (outcome.reason === 'limit_reached') {
      throw apiError('plan_restricted', `The ${context.organization.plan} plan allows at most ${max} registrations.`);
    }
    // A retry: the first attempt's record (and whatever of its effects is still undelivered).
    if (outcome.reason === 'idempotency_key_taken') return deliverAfterCommit(deps, 'registrations', outcome.existing);
    if (record.idempotencyKey !== undefined)
      throw apiError('conflict', 'The registration this Idempotency-Key created was deleted.');
    throw new Error('a freshly generated registration id collided');
  }
  return withoutOutbox(outcome.record);
}

export async function getRegistration(deps: ServiceDeps, context: RequestContext, id: string): Promise<Registration> {
  // A malformed id is answered like an unknown one, without a query (docs/architecture.md §1.3).
  const record = isId('reg', id) ? await deps.store.registrations.get(context.organization.id, id) : null;
  if (!record) throw apiError('not_found', 'No such registration.');
  return record;
}

/** One page plus one item (the caller trims it to find the next cursor). */
export async function listRegistrations(
  deps: ServiceDeps,
  context: RequestContext,
  query: PageQuery & { status?: RegistrationStatus },
): Promise<Registration[]> {
  return deps.store.registrations.list({ ...query, limit: query.limit + 1, organizationId: context.organization.id });
}

/**
 * One self-service transition: refusal check on the record as read, then the conditional write on its revision
 * with the audit entry in the same write (retried on a race when the client sent no If-Match).
 */
async function transition(
  deps: ServiceDeps,
  context: RequestContext,
  id: string,
  action: SelfServiceAction,
  revisionIn: readonly number[] | undefined,
  prepare: (current: Registration) => RegistrationChanges | 'remove',
): Promise<Registration> {
  const row = selfServiceRow(action);
  for (let attempt = 0; ; attempt += 1) {
    const current = await getRegistration(deps, context, id);
    const refused = check(action, current, actionContextOf(context, deps.clock()));
    if (refused) throw refused;
    if (revisionIn !== undefined && !revisionIn.includes(current.revision))
      throw writeMissError('stale_revision', action, current);
    const changes = prepare(current);
    const now = deps.clock();
    const to = changes === 'remove' ? 'removed' : (changes.status ?? current.status);
    const audit = registrationAudit(current, {
      action,
      actor: context.principal.sub,
      to,
      now,
      // A removed record keeps the revision it had.
      ...(changes === 'remove' && { revision: current.revision }),
    });
    const type = SELF_SERVICE_EVENTS[action];
    const webhook =
      type &&
      registrationEvent(
        type,
        changes === 'remove' ? current : recordAfter(current, changes, now),
        context.principal.sub,
        now,
      );
    const outcome = await commitRegistration(deps, {
      current,
      statusIn: row.from,
      changes,
      now,
      effects: [{ audit, ...(webhook && { webhook }) }],
    });
    if (outcome.ok) return outcome.record;
    if (revisionIn === undefined && outcome.reason === 'stale_revision' && attempt < RETRIES_WITHOUT_IF_MATCH) continue;
    throw writeMissError(outcome.reason, action, outcome.current);
  }
}

export async function updateRegistration(
  deps: ServiceDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<Registration> {
  const input = validateBody<RegistrationUpdateInput>(REGISTRATION_UPDATE_SCHEMA, body);
  // Only allowlisted fields are copied: nothing from the body reaches storage by spreading.
  const changes: RegistrationChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.clientType !== undefined) changes.clientType = input.clientType;
  if (input.applicationType !== undefined) changes.applicationType = input.applicationType;
  if (input.policyProfileId !== undefined) changes.policyProfileId = input.policyProfileId;
  if (input.config !== undefined) changes.config = input.config;
  return transition(deps, context, id, 'edit', revisionIn, () => changes);
}

export async function submitRegistration(
  deps: ServiceDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<Registration> {
  validateBody(ACTION_REQUEST_SCHEMA, body);
  return transition(deps, context, id, 'submit', revisionIn, (current) => {
    // The write is conditional on the revision validated here, so what was checked is what gets submitted.
    const violations = validateRegistration({
      config: current.config,
      clientType: current.clientType,
      applicationType: current.applicationType,
      policyProfileId: current.policyProfileId,
      plan: context.organization.plan,
    });
    if (violations.length > 0) {
      throw apiError(
        'validation_failed',
        'The registration does not satisfy its policy profile and the platform policy.',
        {
          fields: violations,
        },
      );
    }
    return { status: 'pending_review', submittedAt: deps.clock(), submittedBy: context.principal.sub };
  });
}

export async function withdrawRegistration(
  deps: ServiceDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<Registration> {
  validateBody(ACTION_REQUEST_SCHEMA, body);
  return transition(deps, context, id, 'withdraw', revisionIn, () => ({
    status: 'draft',
    submittedAt: null,
    submittedBy: null,
  }));
}

export async function deleteRegistration(
  deps: ServiceDeps,
  context: RequestContext,
  id: string,
  revisionIn?: readonly number[],
): Promise<void> {
  await transition(deps, context, id, 'delete', revisionIn, () => 'remove');
}
