/**
 * Organization-scoped webhook routes: create (the signing secret in that answer only), list, read, edit, delete,
 * a webhook's deliveries with their attempts, and redelivery. `webhooks:read` for reads (every role),
 * `webhooks:write` for changes (owners).
 */
import type { Request, Response } from 'express';
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { revisionsFromIfMatch, setEtag } from '../../http/etag.js';
import { pageOf } from '../../db/keyset-page.js';
import { pageResult, parseListParams, setNextLink, type ListBinding } from '../../http/pagination.js';
import { ACTION_REQUEST_SCHEMA } from '../registrations/registrations.service.js';
import { requestContextOf } from '../registrations/request-context.js';
import { validateBody } from '../../http/validate-body.js';
import type { Delivery, Webhook } from './webhooks.model.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  redeliver,
  updateWebhook,
  WEBHOOK_CREATE_SCHEMA,
  WEBHOOK_UPDATE_SCHEMA,
} from './webhooks.service.js';

const WEBHOOK_SCHEMA = apiSchemaId('webhook');
const DELIVERY_SCHEMA = apiSchemaId('webhook-delivery');
const WEBHOOK_ID = { webhookId: 'The webhook (`whk_…`).' };
const DELIVERY_IDS = { ...WEBHOOK_ID, deliveryId: 'The delivery (`dlv_…`).' };
const TAG = 'Webhooks';

const webhookId = (req: Request) => String(req.params.webhookId);

function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    organizationId: webhook.organizationId,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    revision: webhook.revision,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
    createdBy: webhook.createdBy,
  };
}

function deliveryView(delivery: Delivery) {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    messageId: delivery.messageId,
    type: delivery.type,
    status: delivery.status,
    attempts: delivery.attempts.map((a) => ({
      at: a.at.toISOString(),
      ...(a.statusCode !== undefined && { statusCode: a.statusCode }),
      ...(a.error !== undefined && { error: a.error }),
      durationMs: a.durationMs,
    })),
    ...(delivery.status === 'pending' &&
      delivery.nextAttemptAt && { nextAttemptAt: delivery.nextAttemptAt.toISOString() }),
    createdAt: delivery.createdAt.toISOString(),
    payload: JSON.parse(delivery.body) as object,
  };
}

function sendWebhook(res: Response, webhook: Webhook, status = 200): void {
  setEtag(res, webhook.revision);
  res.status(status).json(webhookView(webhook));
}

export const webhookRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/webhooks',
    scope: 'webhooks:read',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const binding: ListBinding = { resource: 'webhooks', organizationId: context.organization.id, filters: {} };
      const params = parseListParams(req, binding);
      // An organization holds few webhooks (MAX_WEBHOOKS_PER_ORGANIZATION): its whole list, paged here.
      const all = await deps.store.webhooks.list(context.organization.id);
      const items = pageOf(all, { limit: params.limit + 1, ...(params.after ? { after: params.after } : {}) });
      const { page, nextCursor } = pageResult(items, params, binding);
      setNextLink(res, req, deps.config.publicBaseUrl, nextCursor, params, binding);
      res.json({ data: page.map(webhookView), nextCursor });
    },
    doc: {
      operationId: 'listWebhooks',
      summary: "List the organization's webhooks",
      tag: TAG,
      list: {},
      response: { description: 'A page of webhooks, oldest first.', schema: WEBHOOK_SCHEMA },
    },
  },
  {
    method: 'post',
    path: '/webhooks',
    scope: 'webhooks:write',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const { webhook, secret } = await createWebhook(deps, context, req.body);
      res.setHeader(
        'Location',
        `${deps.config.publicBaseUrl.replace(/\/$/, '')}/api/v1/organizations/${webhook.organizationId}/webhooks/${webhook.id}`,
      );
      setEtag(res, webhook.revision);
      res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      res.status(201).json({ ...webhookView(webhook), secret });
    },
    doc: {
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      description:
        'Owners only. The URL must be https and resolve to public addresses (422 otherwise). Events of the listed types are POSTed to it, signed per the Standard Webhooks specification with the signing secret returned in this answer only (`Cache-Control: no-store`). 409 when the organization already holds 20.',
      tag: TAG,
      body: { schema: WEBHOOK_CREATE_SCHEMA },
      response: {
        status: 201,
        description: 'The webhook and its signing secret.',
        schema: apiSchemaId('webhook-created'),
        headers: ['ETag', 'Cache-Control'],
      },
      errors: [409],
    },
  },
  {
    method: 'get',
    path: '/webhooks/:webhookId',
    scope: 'webhooks:read',
    handler: (deps) => async (req, res) => {
      sendWebhook(res, await getWebhook(deps, requestContextOf(req), webhookId(req)));
    },
    doc: {
      operationId: 'getWebhook',
      summary: 'Read a webhook',
      tag: TAG,
      pathParams: WEBHOOK_ID,
      response: { description: 'The webhook (never its signing secret).', schema: WEBHOOK_SCHEMA, headers: ['ETag'] },
    },
  },
  {
    method: 'patch',
    path: '/webhooks/:webhookId',
    scope: 'webhooks:write',
    handler: (deps) => async (req, res) => {
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      sendWebhook(res, await updateWebhook(deps, requestContextOf(req), webhookId(req), req.body, ifMatch));
    },
    doc: {
      operationId: 'updateWebhook',
      summary: "Change a webhook's URL, events or description",
      description: 'Owners only; the signing secret stays.',
      tag: TAG,
      pathParams: WEBHOOK_ID,
      body: { schema: WEBHOOK_UPDATE_SCHEMA },
      ifMatch: true,
      response: { description: 'The webhook after the change.', schema: WEBHOOK_SCHEMA, headers: ['ETag'] },
    },
  },
  {
    method: 'delete',
    path: '/webhooks/:webhookId',
    scope: 'webhooks:write',
    handler: (deps) => async (req, res) => {
      await deleteWebhook(deps, requestContextOf(req), webhookId(req), revisionsFromIfMatch(req.get('if-match')));
      res.status(204).end();
    },
    doc: {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook (and its pending deliveries)',
      description: 'Owners only.',
      tag: TAG,
      pathParams: WEBHOOK_ID,
      ifMatch: true,
      response: { status: 204, description: 'Deleted.' },
    },
  },
  {
    method: 'get',
    path: '/webhooks/:webhookId/deliveries',
    scope: 'webhooks:read',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const id = webhookId(req);
      const binding: ListBinding = {
        resource: `webhooks/${id}/deliveries`,
        organizationId: context.organization.id,
        filters: {},
      };
      const params = parseListParams(req, binding);
      const { page, nextCursor } = pageResult(await listDeliveries(deps, context, id, params), params, binding);
      setNextLink(res, req, deps.config.publicBaseUrl, nextCursor, params, binding);
      res.json({ data: page.map(deliveryView), nextCursor });
    },
    doc: {
      operationId: 'listWebhookDeliveries',
      summary: "List a webhook's deliveries with every attempt",
      description:
        'Oldest first: every pending delivery, and the last 100 finished ones. Each attempt shows when, the answer code (absent when there was none) and why it failed.',
      tag: TAG,
      pathParams: WEBHOOK_ID,
      list: {},
      response: { description: 'A page of deliveries.', schema: DELIVERY_SCHEMA },
    },
  },
  {
    method: 'post',
    path: '/webhooks/:webhookId/deliveries/:deliveryId/actions/redeliver',
    scope: 'webhooks:write',
    handler: (deps) => async (req, res) => {
      validateBody(ACTION_REQUEST_SCHEMA, req.body);
      const context = requestContextOf(req);
      res.json(deliveryView(await redeliver(deps, context, webhookId(req), String(req.params.deliveryId))));
    },
    doc: {
      operationId: 'redeliverWebhookDelivery',
      summary: 'Send a delivery again',
      description:
        'Owners only. The same body with the same `webhook-id`, as a new attempt now (retried for 24 h again if it fails).',
      tag: TAG,
      pathParams: DELIVERY_IDS,
      body: { schema: ACTION_REQUEST_SCHEMA, optional: true },
      response: { description: 'The delivery, pending again.', schema: DELIVERY_SCHEMA },
    },
  },
];
