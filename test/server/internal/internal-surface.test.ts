/**
 * The internal surface's periodic work: the outbox drain runs every OUTBOX_DRAIN_INTERVAL_MS, so an entry a crash
 * left undelivered appears within about one interval (and not within it when the interval is longer); the webhook
 * dispatcher polls every WEBHOOKS_POLL_INTERVAL_MS, and not at all where no webhook can exist (MongoDB without
 * PROVISIONING_ENCRYPTION_KEY).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { settingsProblems } from '../../../lib/settings/settings-error.js';
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

/**
 * The dispatcher passes begun within `waitMs` (each pass first asks for the secret notices due), on an embedded store
 * that says it is `kind` — the dispatcher's decision to poll reads only the kind and the settings.
 */
async function dispatcherPassesWithin(env: Record<string, string>, kind: Store['kind'], waitMs: number) {
  const memory = createMemoryStore();
  let passes = 0;
  const store: Store = {
    ...memory,
    kind,
    secretNotices: {
      ...memory.secretNotices,
      due: (...args) => {
        passes += 1;
        return memory.secretNotices.due(...args);
      },
    },
  };
  const deps: ApiDeps = {
    config: loadServiceConfig(env),
    store,
    logger: createLogger({ level: 'silent', name: 'test' }),
    clock: () => new Date(),
  };
  const surface = createInternalSurface(deps);
  try {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    return passes;
  } finally {
    await surface.stop();
  }
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadServiceConfig(env);
  } catch (error) {
    return settingsProblems(error) ?? [String(error)];
  }
  return [];
}

describe('the internal surface', () => {
  it('drains undelivered outboxes every OUTBOX_DRAIN_INTERVAL_MS', async () => {
    expect(await entryDeliveredWithin(100, 1500)).to.equal(true);
    expect(await entryDeliveredWithin(60_000, 300)).to.equal(false);
  });

  it('polls for webhook work every WEBHOOKS_POLL_INTERVAL_MS (1000 by default), refusing an invalid one', async () => {
    expect(loadServiceConfig({}).webhooksPollIntervalMs).to.equal(1000);
    expect(await dispatcherPassesWithin({ WEBHOOKS_POLL_INTERVAL_MS: '100' }, 'memory', 550)).to.be.at.least(3);
    expect(await dispatcherPassesWithin({ WEBHOOKS_POLL_INTERVAL_MS: '60000' }, 'memory', 300)).to.equal(0);
    expect(problemsOf({ WEBHOOKS_POLL_INTERVAL_MS: '99' })).to.deep.equal([
      'WEBHOOKS_POLL_INTERVAL_MS must be ≥ 100 (got "99")',
    ]);
    expect(problemsOf({ WEBHOOKS_POLL_INTERVAL_MS: '3600001' })).to.deep.equal([
      'WEBHOOKS_POLL_INTERVAL_MS must be ≤ 3600000 (got "3600001")',
    ]);
    expect(problemsOf({ WEBHOOKS_POLL_INTERVAL_MS: 'soon' })).to.deep.equal([
      'WEBHOOKS_POLL_INTERVAL_MS must be an integer (got "soon")',
    ]);
  });

  it('does not poll for webhook work on MongoDB without PROVISIONING_ENCRYPTION_KEY (no webhook can exist)', async () => {
    const fast = { WEBHOOKS_POLL_INTERVAL_MS: '100' };
    expect(await dispatcherPassesWithin(fast, 'mongo', 550)).to.equal(0);
    const key = { PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    expect(await dispatcherPassesWithin({ ...fast, ...key }, 'mongo', 550)).to.be.at.least(3);
  });
});
