/**
 * Webhook subscriptions: the interface both stores pass the contract suite against (test/server/contract/), and
 * the embedded implementation. An organization holds at most MAX_WEBHOOKS_PER_ORGANIZATION; every write is
 * conditional on the webhook's revision when the caller gives one (If-Match).
 */
import { copyPlain } from '../../../lib/copy-plain.js';
import { compareKeys } from '../../db/keyset-page.js';
import type { Webhook } from './webhooks.model.js';

export type WebhookChanges = Partial<Pick<Webhook, 'url' | 'events' | 'description'>>;

export type WebhookWrite =
  { ok: true; webhook: Webhook } | { ok: false; reason: 'not_found' | 'stale_revision'; current?: Webhook };

export interface WebhookRepository {
  /** The organization's webhooks, oldest first. */
  list(organizationId: string): Promise<Webhook[]>;
  get(organizationId: string, id: string): Promise<Webhook | null>;
  /** Stores a new webhook unless the organization already holds `max`. */
  create(webhook: Webhook, max: number): Promise<'created' | 'limit_reached'>;
  /** Applies `changes` (revision + 1, `updatedAt`) if the webhook is at one of `revisionIn` (when given). */
  update(
    organizationId: string,
    id: string,
    changes: WebhookChanges,
    now: Date,
    revisionIn?: readonly number[],
  ): Promise<WebhookWrite>;
  delete(organizationId: string, id: string, revisionIn?: readonly number[]): Promise<WebhookWrite>;
}

/** The edits of one organization's webhooks, shared by both stores: `webhooks` is the organization's list. */
export function editWebhooks(
  webhooks: Webhook[],
  id: string,
  revisionIn: readonly number[] | undefined,
  edit: (current: Webhook) => Webhook | null,
): { webhooks: Webhook[]; outcome: WebhookWrite } {
  const current = webhooks.find((w) => w.id === id);
  if (!current) return { webhooks, outcome: { ok: false, reason: 'not_found' } };
  if (revisionIn && !revisionIn.includes(current.revision))
    return { webhooks, outcome: { ok: false, reason: 'stale_revision', current: copyPlain(current) } };
  const next = edit(current);
  return {
    webhooks: next ? webhooks.map((w) => (w.id === id ? next : w)) : webhooks.filter((w) => w.id !== id),
    outcome: { ok: true, webhook: copyPlain(next ?? current) },
  };
}

export function changed(current: Webhook, changes: WebhookChanges, now: Date): Webhook {
  return { ...current, ...copyPlain(changes), revision: current.revision + 1, updatedAt: now };
}

export function createMemoryWebhookRepository(): WebhookRepository {
  const byOrganization = new Map<string, Webhook[]>();
  const of = (organizationId: string) => byOrganization.get(organizationId) ?? [];
  return {
    async list(organizationId) {
      return [...of(organizationId)].sort(compareKeys).map(copyPlain);
    },
    async get(organizationId, id) {
      const webhook = of(organizationId).find((w) => w.id === id);
      return webhook ? copyPlain(webhook) : null;
    },
    async create(webhook, max) {
      const webhooks = of(webhook.organizationId);
      if (webhooks.length >= max) return 'limit_reached';
      byOrganization.set(webhook.organizationId, [...webhooks, copyPlain(webhook)]);
      return 'created';
    },
    async update(organizationId, id, changes, now, revisionIn) {
      const edit = editWebhooks(of(organizationId), id, revisionIn, (current) => changed(current, changes, now));
      byOrganization.set(organizationId, edit.webhooks);
      return edit.outcome;
    },
    async delete(organizationId, id, revisionIn) {
      const edit = editWebhooks(of(organizationId), id, revisionIn, () => null);
      byOrganization.set(organizationId, edit.webhooks);
      return edit.outcome;
    },
  };
}
