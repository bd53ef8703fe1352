/**
 * The internal surface's periodic work: the outbox drain runs every OUTBOX_DRAIN_INTERVAL_MS, so an entry a crash
 * left undelivered appears within about one interval (and not within it when the interval is longer).
 */
import { expect } from 'chai';
import { createRegistration } from '../../../server/components/registrations/registrations.service.js';
import { loadServiceConfig } from '../../../server/config.js';
import type { ApiDeps, Store } from '../../../server/deps.js';
import { createInternalSurface } from '../../../server/internal/internal-surface.js';
import { createLogger } from '../../../lib/logger.js';
import { createMemoryStore } from '../../../server/store/memory-store.js';
import { ALL_SCOPES } from '../components/registrations/domain-fixtures.js';

const INPUT = { name: 'Cut off', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } };

/** The store as an instance that died between the record write and the audit write saw it. */
const auditKilled = (store: Store): Store => ({
  ...store,
  audit: { append: () => Promise.reject(new Error('killed')), list: store.audit.list.bind(store.audit) },
});

async function entryDeliveredWithin(intervalMs: number, waitMs: number): Promise<boolean> {
  const store = createMemoryStore();
  const deps: ApiDeps = {
    config: loadServiceConfig({ OUTBOX_DRAIN_INTERVAL_MS: String(intervalMs) }),
    store,
    logger: createLogger({ level: 'silent', name: 'test' }),
    clock: () => new Date(),
  };
  const surface = createInternalSurface(deps);
  try {
    const organization = await store.organizations.create({ name: 'Drained', plan: 'pro' });
    const context = { organization, principal: { sub: 'alice', scopes: ALL_SCOPES }, role: 'owner' as const };
    const created = await createRegistration({ store: auditKilled(store), clock: deps.clock }, context, INPUT);
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      const entries = await store.audit.list({ organizationId: organization.id, targetId: created.id, limit: 5 });
      if (entries.length > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  } finally {
    await surface.stop();
  }
}

describe('the internal surface', () => {
  it('drains undelivered outboxes every OUTBOX_DRAIN_INTERVAL_MS', async () => {
    expect(await entryDeliveredWithin(100, 1500)).to.equal(true);
    expect(await entryDeliveredWithin(60_000, 300)).to.equal(false);
  });
});
