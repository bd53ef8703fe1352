/**
 * Managing an organization's webhooks on the public API: create (the signing secret returned once), list, read,
 * edit, delete, list a webhook's deliveries and redeliver one. Reading needs any role; changing needs an owner.
 * Targets are checked when saved (webhook-target.ts) and again at every delivery. Changes are audited.
 */
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { validateBody } from '../../http/validate-body.js';
import { isId, newId } from '../../ids.js';
import type { PageQuery } from '../../db/keyset-page.js';
import type { RequestContext } from '../registrations/request-context.js';
import { refusalError, roleRefusal } from '../registrations/state-machine.js';
import { writeMissError } from '../registrations/write-miss.js';
import { targetProblem } from './webhook-target.js';
import { newSigningSecret, signingSecretBinding, signingSecretCipher } from './webhook-signing.js';
import type { WebhookChanges } from './webhooks.repository.js';
import { MAX_WEBHOOKS_PER_ORGANIZATION, type Delivery, type Webhook, type WebhookEventType } from './webhooks.model.js';

export const WEBHOOK_CREATE_SCHEMA = apiSchemaId('webhook-create');
export const WEBHOOK_UPDATE_SCHEMA = apiSchemaId('webhook-update');

type WebhookDeps = Pick<ApiDeps, 'store' | 'clock' | 'config'>;

/** Owners only: a webhook sends the organization's events to a URL of the caller's choosing. */
function requireOwner(context: RequestContext, action: string): void {
  const refusal = roleRefusal(action, undefined, '', { role: context.role, subject: context.principal.sub });
  if (refusal) throw refusalError(refusal);
}

async function checkTarget(deps: WebhookDeps, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const problem = await targetProblem(url, deps.config.webhooksAllowPrivateTargets);
  if (problem)
    throw apiError('validation_failed', `The webhook URL ${problem}.`, { fields: [{ path: 'url', message: problem }] });
}

async function audit(deps: WebhookDeps, context: RequestContext, webhook: Webhook, action: string, to: string) {
  await deps.store.audit.append({
    at: deps.clock(),
    organizationId: webhook.organizationId,
    targetType: 'webhook',
    targetId: webhook.id,
    action,
    actor: context.principal.sub,
    to,
    revision: webhook.revision,
  });
}

export async function createWebhook(
  deps: WebhookDeps,
  context: RequestContext,
  body: unknown,
): Promise<{ webhook: Webhook; secret: string }> {
  requireOwner(context, 'create webhooks');
  const input = validateBody<{ url: string; events: WebhookEventType[]; description?: string }>(
    WEBHOOK_CREATE_SCHEMA,
    body,
  );
  await checkTarget(deps, input.url);
  const id = newId('whk');
  const secret = newSigningSecret();
  const now = deps.clock();
  const webhook: Webhook = {
    id,
    organizationId: context.organization.id,
    url: input.url,
    events: input.events,
    description: input.description ?? '',
    secretSealed: signingSecretCipher(deps).encrypt(secret, signingSecretBinding(id)),
    revision: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: context.principal.sub,
  };
  if ((await deps.store.webhooks.create(webhook, MAX_WEBHOOKS_PER_ORGANIZATION)) === 'limit_reached')
    throw apiError('conflict', `An organization holds at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks.`);
  await audit(deps, context, webhook, 'create_webhook', input.events.join(' '));
  return { webhook, secret };
}

export async function getWebhook(deps: WebhookDeps, context: RequestContext, id: string): Promise<Webhook> {
  const webhook = isId('whk', id) ? await deps.store.webhooks.get(context.organization.id, id) : null;
  if (!webhook) throw apiError('not_found', 'No such webhook.');
  return webhook;
}

export async function updateWebhook(
  deps: WebhookDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<Webhook> {
  requireOwner(context, 'edit webhooks');
  await getWebhook(deps, context, id);
  const input = validateBody<WebhookChanges>(WEBHOOK_UPDATE_SCHEMA, body);
  await checkTarget(deps, input.url);
  // Only allowlisted members are copied.
  const changes: WebhookChanges = {};
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.events = input.events;
  if (input.description !== undefined) changes.description = input.description;
  const outcome = await deps.store.webhooks.update(context.organization.id, id, changes, deps.clock(), revisionIn);
  if (!outcome.ok)
    throw writeMissError(outcome.reason, 'edit', outcome.current && { status: 'active', ...outcome.current });
  await audit(deps, context, outcome.webhook, 'update_webhook', outcome.webhook.events.join(' '));
  return outcome.webhook;
}

export async function deleteWebhook(
  deps: WebhookDeps,
  context: RequestContext,
  id: string,
  revisionIn?: readonly number[],
): Promise<void> {
  requireOwner(context, 'delete webhooks');
  await getWebhook(deps, context, id);
  const outcome = await deps.store.webhooks.delete(context.organization.id, id, revisionIn);
  if (!outcome.ok)
    throw writeMissError(outcome.reason, 'delete', outcome.current && { status: 'active', ...outcome.current });
  await deps.store.webhookDeliveries.removeWebhook(context.organization.id, id);
  await audit(deps, context, outcome.webhook, 'delete_webhook', 'deleted');
}

/** One page plus one item (the caller trims it to find the next cursor). */
export async function listDeliveries(
  deps: WebhookDeps,
  context: RequestContext,
  webhookId: string,
  query: PageQuery,
): Promise<Delivery[]> {
  await getWebhook(deps, context, webhookId);
  return deps.store.webhookDeliveries.list(context.organization.id, webhookId, { ...query, limit: query.limit + 1 });
}

export async function redeliver(
  deps: WebhookDeps,
  context: RequestContext,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery> {
  requireOwner(context, 'redeliver webhook deliveries');
  await getWebhook(deps, context, webhookId);
  const delivery = isId('dlv', deliveryId)
    ? await deps.store.webhookDeliveries.redeliver(context.organization.id, webhookId, deliveryId, deps.clock())
    : null;
  if (!delivery) throw apiError('not_found', 'No such delivery.');
  return delivery;
}
