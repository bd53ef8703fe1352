/**
 * Webhook subscriptions on MongoDB: one document per organization, read by `{ _id }` and replaced under the
 * organization's webhook lock (server/db/write-locks.ts), so two instances never lose each other's edits on
 * FerretDB, whose updates are read-then-write. The contract of the embedded repository.
 */
import type { Connection } from 'mongoose';
import { copyPlain } from '../../../lib/copy-plain.js';
import { compareKeys } from '../../db/keyset-page.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import type { Webhook } from './webhooks.model.js';
import { changed, editWebhooks, type WebhookRepository, type WebhookWrite } from './webhooks.repository.js';
import { webhookModels } from './webhooks.schema.js';

export function createMongoWebhookRepository(connection: Connection, locks: WriteLocks): WebhookRepository {
  const { Subscriptions } = webhookModels(connection);
  const maxTimeMS = queryTimeoutMs(connection);

  async function read(organizationId: string): Promise<Webhook[]> {
    const doc = await Subscriptions.findOne({ _id: organizationId })
      .lean<{ webhooks: Webhook[] }>()
      .maxTimeMS(maxTimeMS);
    return doc?.webhooks ?? [];
  }
  async function write(organizationId: string, webhooks: Webhook[]): Promise<void> {
    if (webhooks.length === 0) await Subscriptions.deleteOne({ _id: organizationId }, { maxTimeMS });
    else
      await Subscriptions.replaceOne(
        { _id: organizationId },
        { webhooks: copyPlain(webhooks) },
        { upsert: true, maxTimeMS },
      );
  }
  function edit(
    organizationId: string,
    id: string,
    revisionIn: readonly number[] | undefined,
    change: (current: Webhook) => Webhook | null,
  ): Promise<WebhookWrite> {
    return locks.withLock(`webhooks:${organizationId}`, async () => {
      const result = editWebhooks(await read(organizationId), id, revisionIn, change);
      if (result.outcome.ok) await write(organizationId, result.webhooks);
      return result.outcome;
    });
  }

  return {
    async list(organizationId) {
      return (await read(organizationId)).sort(compareKeys);
    },
    async get(organizationId, id) {
      return (await read(organizationId)).find((w) => w.id === id) ?? null;
    },
    async create(webhook, max) {
      return locks.withLock(`webhooks:${webhook.organizationId}`, async () => {
        const webhooks = await read(webhook.organizationId);
        if (webhooks.length >= max) return 'limit_reached';
        await write(webhook.organizationId, [...webhooks, webhook]);
        return 'created';
      });
    },
    update: (organizationId, id, changes, now, revisionIn) =>
      edit(organizationId, id, revisionIn, (current) => changed(current, changes, now)),
    delete: (organizationId, id, revisionIn) => edit(organizationId, id, revisionIn, () => null),
  };
}
