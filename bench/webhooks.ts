/**
 * Webhooks benchmark: what an organization's webhook adds to its transitions, and what the dispatcher's poll costs,
 * on the store of MONGODB_URI (FerretDB in CI; the embedded store without it), each as a ratio against a floor
 * measured in the same run, rounds alternating so load from other processes hits both alike:
 *   - submit + withdraw pairs (the service functions, no HTTP) of an organization without webhooks (the floor), then
 *     of one whose webhook wants both events (each transition also reads the subscriptions by `_id` and inserts
 *     into webhook_inbox);
 *   - the dispatcher's idle poll (nothing due) with the store holding few and then many registrations, against one
 *     findOne by `_id`: its queries never touch registrations, so it must stay flat as they grow.
 * Usage: tsx bench/webhooks.ts [--pairs 100] [--rounds 3] [--registrations 5000]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createMemoryStore } from '../server/store/memory-store.js';
import { createMongoStore, type MongoStore } from '../server/store/mongo-store.js';
import { migrate } from '../server/store/migrate.js';
import { loadServiceConfig } from '../server/config.js';
import type { Store } from '../server/deps.js';
import type { RequestContext } from '../server/components/registrations/request-context.js';
import {
  createRegistration,
  submitRegistration,
  withdrawRegistration,
} from '../server/components/registrations/registrations.service.js';
import { createWebhook } from '../server/components/webhooks/webhooks.service.js';
import { createWebhookDispatcher } from '../server/components/webhooks/webhook-dispatcher.js';
import { SCOPES } from '../server/principal.js';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    registrations: { type: 'string', default: '5000' },
  },
});
const PAIRS = Number(values.pairs);
const ROUNDS = Number(values.rounds);
const MANY = Number(values.registrations);

const config = loadServiceConfig({
  PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  LOG_LEVEL: 'silent',
});
const uri = process.env.MONGODB_URI;
const mongo: MongoStore | undefined = uri
  ? await createMongoStore(uri, { dbName: `bench_webhooks_${randomBytes(4).toString('hex')}` })
  : undefined;
const store: Store = mongo ?? createMemoryStore();
if (mongo) await migrate(mongo.connection);
const deps = { store, clock: () => new Date(), config };

async function contextOf(name: string): Promise<RequestContext> {
  const organization = await store.organizations.create({ name, plan: 'enterprise' });
  return { organization, principal: { sub: 'alice', scopes: new Set(SCOPES) }, role: 'owner' };
}

const BODY = {
  name: 'Bench app',
  clientType: 'confidential',
  applicationType: 'web',
  policyProfileId: 'pp_standard',
  config: { redirectUris: ['https://app.example.com/callback'], grantTypes: ['authorization_code'] },
};

async function draft(context: RequestContext): Promise<string> {
  return (await createRegistration(deps, context, BODY)).id;
}

/** Milliseconds per transition over PAIRS submit + withdraw pairs on one registration. */
async function transitions(context: RequestContext, id: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < PAIRS; i += 1) {
    await submitRegistration(deps, context, id, {});
    await withdrawRegistration(deps, context, id, {});
  }
  return (performance.now() - started) / (PAIRS * 2);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const plain = await contextOf('Without webhooks');
const hooked = await contextOf('With a webhook');
await createWebhook(deps, hooked, {
  url: 'http://127.0.0.1:9/hooks',
  events: ['registration.submitted', 'registration.withdrawn'],
});
const plainId = await draft(plain);
const hookedId = await draft(hooked);
await transitions(plain, plainId);
await transitions(hooked, hookedId);

const floor: number[] = [];
const withHook: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  floor.push(await transitions(plain, plainId));
  withHook.push(await transitions(hooked, hookedId));
}
const inbox = (await store.webhookDeliveries.pendingEvents(1_000_000)).length;
console.log(
  `webhooks bench (${store.kind}): a transition ${median(floor).toFixed(2)} ms without webhooks, ` +
    `${median(withHook).toFixed(2)} ms with one that wants it: ratio ${(median(withHook) / median(floor)).toFixed(2)} ` +
    `(median of ${ROUNDS} rounds of ${PAIRS * 2}; ${inbox} events waiting in the inbox)`,
);
// Empty the inbox (nothing listens at port 9: the deliveries are recorded as failed attempts, not waited for).
const dispatcher = createWebhookDispatcher(deps);
for (const event of await store.webhookDeliveries.pendingEvents(1_000_000))
  await store.webhookDeliveries.removeEvent(event.id);

/** Milliseconds per idle poll, and per findOne by `_id` (the floor), over 50 of each. */
async function idlePoll(): Promise<{ poll: number; floor: number }> {
  const polls: number[] = [];
  const floors: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    let started = performance.now();
    for (let i = 0; i < 50; i += 1) await dispatcher.runDue();
    polls.push((performance.now() - started) / 50);
    started = performance.now();
    for (let i = 0; i < 50; i += 1) await store.registrations.get(plain.organization.id, plainId);
    floors.push((performance.now() - started) / 50);
  }
  return { poll: median(polls), floor: median(floors) };
}

const few = await idlePoll();
const filler = await contextOf('Many registrations');
for (let i = 0; i < MANY; i += 1) await createRegistration(deps, filler, BODY);
const many = await idlePoll();
console.log(
  `webhooks bench (${store.kind}): the dispatcher's idle poll ${few.poll.toFixed(2)} ms (${(few.poll / few.floor).toFixed(1)}x a findOne by _id) ` +
    `with 2 registrations, ${many.poll.toFixed(2)} ms (${(many.poll / many.floor).toFixed(1)}x) with ${MANY + 2}: ` +
    `ratio ${(many.poll / few.poll).toFixed(2)}`,
);
await dispatcher.stop();
await mongo?.connection.dropDatabase();
await store.close();
