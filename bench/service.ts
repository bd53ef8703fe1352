/**
 * Service benchmark (autocannon, loopback, bounded): authenticated GET …/registrations/{id} and POST
 * …/registrations, each as a ratio against a floor measured in the same run (issue 15 "Performance"):
 *   - embedded store: a bare Express 5 + express-jwt + jwks-rsa route verifying the same token; measured with the
 *     store holding 10k and then 100k registrations (--sizes), so "flat as the store grows" shows;
 *   - MongoDB (MONGODB_URI set): the same bare route plus one mongoose findOne by id (GET floor) or insertOne (POST
 *     floor) on the same database, so the database's own cost is separated from ours; POST also with a new
 *     Idempotency-Key per request (no target: the key adds its own writes).
 * Then the scale scenario (bench/service-scale.ts): a small organization's reads beside a large one at 100 and at
 * 100,000 (embedded) / 20,000 (MongoDB) registrations, and the database's CPU while the deploy idles.
 * The service logs at the default LOG_LEVEL (info) into /dev/null and keeps its metrics (METRICS_ENABLED=false to
 * leave them out): both are part of what is measured.
 * Rounds alternate floor and service so load from other processes hits both alike.
 * The service is the built one (dist/), as `npm start` runs it.
 * Usage: npm run bench -- [--duration 2] [--rounds 5] [--connections 20] [--sizes 10000,100000] [--skip-scale]
 *   [--scale-embedded 100000] [--scale-mongo 20000] [--scale-rounds 3] [--scale-connections 4] [--idle-seconds 15]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import express from 'express';
import { expressjwt } from 'express-jwt';
import jwksRsa from 'jwks-rsa';
import mongoose, { type Connection } from 'mongoose';
import { pino } from 'pino';
import { newId } from '../server/ids.js';
import type { Registration } from '../server/components/registrations/registrations.model.js';
import type { ApiDeps, Store } from '../server/deps.js';
import { startTestAuth, type TestAuth } from '../test/support/test-auth.js';
import { runScale } from './service-scale.js';

/**
 * The service as `npm start` runs it: tsc's output in dist/ (`npm run bench` builds it first). Run from source
 * through tsx, esbuild's keepNames wraps every closure made per request in a `__name` call that production never
 * pays — 10–20 µs of a 330 µs GET, charged to the service and not to the floor (plain JavaScript from node_modules).
 */
async function built<T>(path: string): Promise<T> {
  return (await import(new URL(`../dist/${path}`, import.meta.url).href)) as T;
}
const { createLogger } = await built<typeof import('../lib/logger.js')>('lib/logger.js');
const { createApp } = await built<typeof import('../server/app.js')>('server/app.js');
const { loadServiceConfig } = await built<typeof import('../server/config.js')>('server/config.js');
const { createMemoryStore } =
  await built<typeof import('../server/store/memory-store.js')>('server/store/memory-store.js');
const { createMongoStore } =
  await built<typeof import('../server/store/mongo-store.js')>('server/store/mongo-store.js');
const { createInternalSurface } = await built<typeof import('../server/internal/internal-surface.js')>(
  'server/internal/internal-surface.js',
);
const { createMetrics } = await built<typeof import('../server/metrics/metrics.js')>('server/metrics/metrics.js');
const { instrumentStore } = await built<typeof import('../server/store/instrumented-store.js')>(
  'server/store/instrumented-store.js',
);
const { upgradeDirectories } = await built<typeof import('../server/store/upgrade-directories.js')>(
  'server/store/upgrade-directories.js',
);

/** The longest wait after a run for its cut-off requests (autocannon's slowest answer, at most this). */
const SETTLE_MAX_MS = 3000;

interface Figures {
  rps: number;
  /** Main-thread busy time per request in µs (servers run on the main thread, autocannon in a worker). */
  costUs: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function listen(handler: express.Express): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function bareApp(auth: TestAuth): express.Express {
  const app = express();
  app.get(
    '/bare',
    expressjwt({
      secret: jwksRsa.expressJwtSecret({
        jwksUri: auth.jwksUri,
        cache: true,
        rateLimit: true,
        jwksRequestsPerMinute: 10,
      }),
      algorithms: ['RS256'],
      issuer: auth.issuer,
      audience: auth.audience,
    }),
    (req, res) => {
      res.json({ sub: (req as express.Request & { auth?: { sub?: string } }).auth?.sub });
    },
  );
  return app;
}

/** The MongoDB floor: the bare route plus one findOne by id (GET) or insertOne (POST) through mongoose. */
function mongoFloorApp(auth: TestAuth, connection: Connection, id: string, body: string): express.Express {
  const app = express();
  const Model = connection.model(
    'BenchFloor',
    new mongoose.Schema({ _id: String }, { strict: false, collection: 'registrations', versionKey: false }),
  );
  const verify = expressjwt({
    secret: jwksRsa.expressJwtSecret({
      jwksUri: auth.jwksUri,
      cache: true,
      rateLimit: true,
      jwksRequestsPerMinute: 10,
    }),
    algorithms: ['RS256'],
    issuer: auth.issuer,
    audience: auth.audience,
  });
  app.get('/floor', verify, async (_req, res) => {
    res.json(await Model.findOne({ _id: id }).lean());
  });
  app.post('/floor', verify, express.json(), async (req, res) => {
    const doc = { _id: newId('reg'), ...(req.body as object), createdAt: new Date() };
    await Model.collection.insertOne(doc as never);
    res.status(201).json(doc);
  });
  void body;
  return app;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  token: string;
  duration: number;
  connections: number;
  /** A new Idempotency-Key on every request (autocannon puts a fresh id for `[<id>]`). */
  keyed?: boolean;
}): Promise<Figures> {
  const before = performance.eventLoopUtilization();
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: {
      authorization: `Bearer ${opts.token}`,
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
      ...(opts.keyed ? { 'idempotency-key': 'bench-[<id>]' } : {}),
    },
    idReplacement: opts.keyed === true,
    duration: opts.duration,
    connections: opts.connections,
    workers: 1,
  });
  const busy = performance.eventLoopUtilization(before);
  // Requests cut off at the end of the run are still being served (on FerretDB, queued behind each other's writes):
  // let them finish, so their work is not billed to the next scenario of the round.
  await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_MAX_MS, result.latency.max)));
  return {
    rps: result.requests.average,
    costUs: (busy.active * 1000) / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

interface ServiceUnderTest {
  label: string;
  server: Server;
  store: Store;
  base: string;
  id: string;
}

/** One service on `store`, with an enterprise organization granted to the token's subject and one registration. */
async function startServiceOn(
  label: ServiceUnderTest['label'],
  store: Store,
  auth: TestAuth,
  token: string,
  body: string,
): Promise<ServiceUnderTest> {
  // A limit that never trips: counters are still kept, so their cost is measured.
  const config = loadServiceConfig(
    auth.env({
      RATE_LIMIT_PER_MINUTE_ENTERPRISE: '100000000',
      ...(process.env.METRICS_ENABLED && { METRICS_ENABLED: process.env.METRICS_ENABLED }),
    }),
  );
  // The default LOG_LEVEL (info), written where it costs what a real log costs but fills no disk.
  const logger = createLogger(
    { level: process.env.LOG_LEVEL ?? 'info', name: 'registration-service' },
    pino.destination({ dest: '/dev/null', sync: false }),
  );
  // As main.ts wires them: metrics on unless METRICS_ENABLED=false (their cost is part of what is measured).
  const metrics = config.metricsEnabled ? createMetrics() : undefined;
  const deps: ApiDeps = {
    config,
    store: metrics ? instrumentStore(store, metrics) : store,
    logger,
    clock: () => new Date(),
    metrics,
  };
  const { url, server } = await listen(createApp(deps));
  const org = await store.organizations.create({ name: 'Bench', plan: 'enterprise' });
  await store.grants.grant({ organizationId: org.id, subject: 'alice', isDefault: true });
  const base = `${url}/api/v1/organizations/${org.id}/registrations`;
  const created = await fetch(base, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  if (created.status !== 201)
    throw new Error(`setup POST (${label}) answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  return { label, server, store, base, id };
}

/** Adds copies of `template` (fresh ids) to its organization until the store holds `size` registrations there. */
async function grow(store: Store, template: Registration, size: number): Promise<void> {
  let count = await store.registrations.count(template.organizationId);
  const batch: Promise<unknown>[] = [];
  for (; count < size; count += 1) {
    batch.push(
      store.registrations.upsert({
        ...structuredClone(template),
        id: newId('reg'),
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    if (batch.length >= 200) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}

type Scenario = { key: string; url: string; method: 'GET' | 'POST'; floor?: string; keyed?: boolean };

async function run(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '20' },
      sizes: { type: 'string', default: '10000,100000' },
      'skip-scale': { type: 'boolean', default: false },
      'scale-embedded': { type: 'string', default: '100000' },
      'scale-mongo': { type: 'string', default: '20000' },
      'scale-rounds': { type: 'string', default: '3' },
      'scale-connections': { type: 'string', default: '4' },
      'idle-seconds': { type: 'string', default: '15' },
    },
  });
  const duration = Math.min(30, Math.max(1, Number(values.duration)));
  const rounds = Math.min(15, Math.max(1, Number(values.rounds)));
  const connections = Math.min(100, Math.max(1, Number(values.connections)));
  const sizes = values.sizes
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0)
    .sort((a, b) => a - b);

  const auth = await startTestAuth();
  const token = await auth.token({ exp: Math.floor(Date.now() / 1000) + 3600 });
  const body = JSON.stringify({
    name: 'Bench app',
    templateId: 'tpl_web',
    config: { redirectUris: ['https://app.example.com/cb'] },
  });
  const embedded = await startServiceOn('embedded', createMemoryStore(), auth, token, body);
  const bare = await listen(bareApp(auth));
  const check = await fetch(`${bare.url}/bare`, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`bare route answered ${check.status}`);
  const servers = [embedded.server, bare.server];
  const all = new Map<string, Figures[]>();
  const push = (k: string, f: Figures) => all.set(k, [...(all.get(k) ?? []), f]);
  const out = (line: string) => process.stdout.write(`${line}\n`);

  /** Alternates the floors and the scenarios for `rounds` rounds (after a warm-up of each). */
  async function measure(
    scenarios: Scenario[],
    floors: Map<string, { url: string; method: 'GET' | 'POST' }>,
  ): Promise<void> {
    for (const target of [...floors.values(), ...scenarios] as {
      url: string;
      method: 'GET' | 'POST';
      keyed?: boolean;
    }[])
      await load({
        url: target.url,
        method: target.method,
        body: target.method === 'POST' ? body : undefined,
        token,
        duration: 1,
        connections,
        keyed: target.keyed,
      });
    for (let round = 0; round < rounds; round += 1) {
      for (const [key, floor] of floors)
        push(
          key,
          await load({
            url: floor.url,
            method: floor.method,
            body: floor.method === 'POST' ? body : undefined,
            token,
            duration,
            connections,
          }),
        );
      for (const sc of scenarios)
        push(
          sc.key,
          await load({
            url: sc.url,
            method: sc.method,
            body: sc.method === 'POST' ? body : undefined,
            token,
            duration,
            connections,
            keyed: sc.keyed,
          }),
        );
    }
  }

  const ratio = (k: string, against: string) => ({
    throughput: median(all.get(k)!.map((f, i) => f.rps / all.get(against)![i].rps)),
    cost: median(all.get(k)!.map((f, i) => all.get(against)![i].costUs / f.costUs)),
  });
  const results: string[] = [];
  const report = (sc: Scenario, target?: number) => {
    const figures = all.get(sc.key)!;
    const r = ratio(sc.key, sc.floor!);
    const mean = (k: keyof Figures) => figures.reduce((a, f) => a + f[k], 0) / figures.length;
    results.push(
      `${sc.key.padEnd(46)} ${String(Math.round(mean('rps'))).padStart(6)} req/s  ${mean('costUs').toFixed(0).padStart(5)} µs CPU/req  p99 ${mean('p99').toFixed(1).padStart(5)} ms  ` +
        `vs ${sc.floor}: throughput ${r.throughput.toFixed(2)}, CPU efficiency ${r.cost.toFixed(2)}${target ? `  (target ≥ ${target.toFixed(1)}: ${r.throughput >= target ? 'met' : 'NOT met'})` : ''}`,
    );
  };

  const floors = new Map([['bare route', { url: `${bare.url}/bare`, method: 'GET' as const }]]);
  const template = (await embedded.store.registrations.get(
    embedded.base.split('/organizations/')[1].split('/')[0],
    embedded.id,
  ))!;
  for (const size of sizes) {
    await grow(embedded.store, template, size);
    const scenarios: Scenario[] = [
      {
        key: `embedded ${size} GET …/registrations/{id}`,
        url: `${embedded.base}/${embedded.id}`,
        method: 'GET',
        floor: 'bare route',
      },
      { key: `embedded ${size} POST …/registrations`, url: embedded.base, method: 'POST', floor: 'bare route' },
    ];
    await measure(scenarios, floors);
    report(scenarios[0], 1.0);
    report(scenarios[1], 0.8);
  }

  let mongo: ServiceUnderTest | undefined;
  if (process.env.MONGODB_URI) {
    // The same scenarios on MongoDB, in a database of the bench's own (emptied and migrated first), with floors
    // that pay the same database round trip.
    const store = await createMongoStore(process.env.MONGODB_URI, {
      dbName: `gatehouse_bench_${process.pid}`,
      // As main.ts opens it: with the resolution cache of the configured (here default) API_RESOLUTION_CACHE_MS.
      resolutionCacheMs: loadServiceConfig(auth.env()).resolutionCacheMs,
    });
    await store.reset();
    mongo = await startServiceOn('mongo', store, auth, token, body);
    const floor = await listen(mongoFloorApp(auth, store.connection, mongo.id, body));
    servers.push(mongo.server, floor.server);
    const mongoFloors = new Map([
      ['bare route + findOne', { url: `${floor.url}/floor`, method: 'GET' as const }],
      ['bare route + insertOne', { url: `${floor.url}/floor`, method: 'POST' as const }],
    ]);
    const scenarios: Scenario[] = [
      {
        key: 'mongo GET …/registrations/{id}',
        url: `${mongo.base}/${mongo.id}`,
        method: 'GET',
        floor: 'bare route + findOne',
      },
      { key: 'mongo POST …/registrations', url: mongo.base, method: 'POST', floor: 'bare route + insertOne' },
      // What a client that retries safely sends: a new Idempotency-Key per create (a claim and its response more).
      {
        key: 'mongo POST …/registrations, Idempotency-Key',
        url: mongo.base,
        method: 'POST',
        floor: 'bare route + insertOne',
        keyed: true,
      },
    ];
    await measure(scenarios, mongoFloors);
    report(scenarios[0], 0.8);
    report(scenarios[1], 0.6);
    report(scenarios[2]);
  }

  out(
    `service benchmark: ${rounds} round(s) × ${duration}s per scenario, ${connections} connections, loopback, LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'}, Node ${process.version}`,
  );
  for (const [key, figures] of all) {
    if ([...floors.keys(), 'bare route + findOne', 'bare route + insertOne'].includes(key)) {
      out(
        `floor: ${key.padEnd(33)} ${String(Math.round(figures.reduce((a, f) => a + f.rps, 0) / figures.length)).padStart(6)} req/s`,
      );
    }
  }
  for (const line of results) out(line);
  out('ratios are medians of per-round figures against the floor measured in the same round');

  if (!values['skip-scale']) {
    const scale = await runScale(
      {
        createApp,
        loadServiceConfig,
        createLogger,
        createInternalSurface,
        createMemoryStore,
        createMongoStore,
        upgradeDirectories,
      },
      auth,
      token,
      {
        duration,
        rounds: Math.min(15, Math.max(1, Number(values['scale-rounds']))),
        connections: Math.min(100, Math.max(1, Number(values['scale-connections']))),
        embeddedSize: Math.max(100, Number(values['scale-embedded'])),
        mongoSize: Math.max(100, Number(values['scale-mongo'])),
        mongoUri: process.env.MONGODB_URI,
        idleSeconds: Math.min(300, Math.max(5, Number(values['idle-seconds']))),
      },
    );
    out(`scale: the small organization's reads (p50/p99 medians of per-round figures, rounds alternate the two sizes)`);
    for (const line of scale) out(line);
  }

  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await auth.close();
  await embedded.store.close();
  if (mongo) {
    await (mongo.store as Awaited<ReturnType<typeof createMongoStore>>).connection.dropDatabase();
    await mongo.store.close();
  }
  const failures = [...all.values()].reduce((a, figures) => a + figures.reduce((n, f) => n + f.non2xx, 0), 0);
  if (failures > 0) out(`${failures} non-2xx answers`);
  return failures > 0 ? 1 : 0;
}

process.exitCode = await run();
