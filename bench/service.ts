/**
 * Service benchmark (autocannon, loopback, bounded): authenticated GET …/registrations/{id} and POST
 * …/registrations on the embedded store — and on MongoDB too when MONGODB_URI is set, with the mongo/embedded
 * ratio — each as a ratio against a bare Express + express-jwt + jwks-rsa route verifying the same token, measured
 * in the same run. Rounds alternate baseline and service so load from other
 * processes hits both alike. Usage: npm run bench -- [--duration 4] [--rounds 2] [--connections 10]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import express from 'express';
import { expressjwt } from 'express-jwt';
import jwksRsa from 'jwks-rsa';
import { silentLogger } from '../lib/logger.js';
import { createApp } from '../server/app.js';
import { loadServiceConfig } from '../server/config.js';
import type { ApiDeps, Store } from '../server/deps.js';
import { createMemoryStore } from '../server/store/memory-store.js';
import { createMongoStore } from '../server/store/mongo-store.js';
import { startTestAuth, type TestAuth } from '../test/support/test-auth.js';

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
      secret: jwksRsa.expressJwtSecret({ jwksUri: auth.jwksUri, cache: true, rateLimit: true, jwksRequestsPerMinute: 10 }),
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

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function load(opts: { url: string; method?: 'GET' | 'POST'; body?: string; token: string; duration: number; connections: number }): Promise<Figures> {
  const before = performance.eventLoopUtilization();
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: { authorization: `Bearer ${opts.token}`, ...(opts.body ? { 'content-type': 'application/json' } : {}) },
    duration: opts.duration,
    connections: opts.connections,
    workers: 1,
  });
  const busy = performance.eventLoopUtilization(before);
  return { rps: result.requests.average, costUs: (busy.active * 1000) / Math.max(1, result.requests.total), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

interface ServiceUnderTest {
  label: 'embedded' | 'mongo';
  server: Server;
  store: Store;
  base: string;
  id: string;
}

/** One service on `store`, with an enterprise organization granted to the token's subject and one registration. */
async function startServiceOn(label: ServiceUnderTest['label'], store: Store, auth: TestAuth, token: string, body: string): Promise<ServiceUnderTest> {
  // A limit that never trips: counters are still kept, so their cost is measured.
  const config = loadServiceConfig(auth.env({ RATE_LIMIT_PER_MINUTE_ENTERPRISE: '100000000' }));
  const deps: ApiDeps = { config, store, logger: silentLogger, clock: () => new Date() };
  const { url, server } = await listen(createApp(deps));
  const org = await store.organizations.create({ name: 'Bench', plan: 'enterprise' });
  await store.grants.grant({ organizationId: org.id, subject: 'alice', isDefault: true });
  const base = `${url}/api/v1/organizations/${org.id}/registrations`;
  const created = await fetch(base, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  if (created.status !== 201) throw new Error(`setup POST (${label}) answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  return { label, server, store, base, id };
}

async function run(): Promise<number> {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '2' }, rounds: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' } },
  });
  const duration = Math.min(30, Math.max(1, Number(values.duration)));
  const rounds = Math.min(15, Math.max(1, Number(values.rounds)));
  const connections = Math.min(100, Math.max(1, Number(values.connections)));

  const auth = await startTestAuth();
  const token = await auth.token({ exp: Math.floor(Date.now() / 1000) + 3600 });
  const body = JSON.stringify({ name: 'Bench app', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } });
  const services = [await startServiceOn('embedded', createMemoryStore(), auth, token, body)];
  if (process.env.MONGODB_URI) {
    // The same scenarios on MongoDB, in a database of the bench's own (emptied and migrated first).
    const mongo = await createMongoStore(process.env.MONGODB_URI, { dbName: `gatehouse_bench_${process.pid}` });
    await mongo.reset();
    services.push(await startServiceOn('mongo', mongo, auth, token, body));
  }
  const bare = await listen(bareApp(auth));
  const check = await fetch(`${bare.url}/bare`, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`bare route answered ${check.status}`);

  // Warm everything (JIT, key caches, connection pools) before measuring.
  await load({ url: `${bare.url}/bare`, token, duration: 1, connections });
  for (const s of services) await load({ url: `${s.base}/${s.id}`, token, duration: 1, connections });

  type Scenario = 'baseline' | `${ServiceUnderTest['label']} ${'get' | 'post'}`;
  const all = new Map<Scenario, Figures[]>([['baseline', []]]);
  const push = (k: Scenario, f: Figures) => all.set(k, [...(all.get(k) ?? []), f]);
  for (let round = 0; round < rounds; round += 1) {
    push('baseline', await load({ url: `${bare.url}/bare`, token, duration, connections }));
    for (const s of services) {
      push(`${s.label} get`, await load({ url: `${s.base}/${s.id}`, token, duration, connections }));
      push(`${s.label} post`, await load({ url: s.base, method: 'POST', body, token, duration, connections }));
    }
  }

  const sum = (xs: Figures[], k: keyof Figures) => xs.reduce((a, f) => a + f[k], 0);
  const mean = (xs: Figures[], k: keyof Figures) => sum(xs, k) / xs.length;
  // Per-round ratios (measured back to back), summarised by their median: robust to load from other processes,
  // which this shared machine has plenty of.
  const ratio = (k: Scenario, against: Scenario) => ({
    throughput: median(all.get(k)!.map((f, i) => f.rps / all.get(against)![i].rps)),
    cost: median(all.get(k)!.map((f, i) => all.get(against)![i].costUs / f.costUs)),
  });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`service benchmark: ${rounds} round(s) × ${duration}s per scenario, ${connections} connections, loopback, ${services.map((s) => s.label).join(' + ')} store(s), Node ${process.version}`);
  for (const [k, figures] of all) {
    const label = k === 'baseline' ? 'bare express-jwt + jwks-rsa GET' : `service ${k.replace('get', 'GET …/registrations/{id}').replace('post', 'POST …/registrations')}`;
    const r = k === 'baseline' ? { throughput: 1, cost: 1 } : ratio(k, 'baseline');
    out(
      `${label.padEnd(44)} ${String(Math.round(mean(figures, 'rps'))).padStart(6)} req/s  ${mean(figures, 'costUs').toFixed(0).padStart(5)} µs CPU/req  ` +
        `p50 ${mean(figures, 'p50').toFixed(1)} ms  p99 ${mean(figures, 'p99').toFixed(1)} ms  non-2xx ${sum(figures, 'non2xx')}  ` +
        `vs bare: throughput ${r.throughput.toFixed(2)}, CPU efficiency ${r.cost.toFixed(2)}`,
    );
  }
  if (all.has('mongo get')) {
    for (const op of ['get', 'post'] as const) {
      out(`mongo vs embedded ${op.toUpperCase()}: throughput ${ratio(`mongo ${op}`, `embedded ${op}`).throughput.toFixed(2)}`);
    }
  }
  out('ratios are medians of per-round figures; ≥ 1.00 against the bare route means at least as fast as it');

  for (const server of [...services.map((s) => s.server), bare.server]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await auth.close();
  for (const s of services) {
    if (s.label === 'mongo') await (s.store as Awaited<ReturnType<typeof createMongoStore>>).connection.dropDatabase();
    await s.store.close();
  }
  const failures = [...all.values()].reduce((a, figures) => a + sum(figures, 'non2xx'), 0);
  return failures > 0 ? 1 : 0;
}

process.exitCode = await run();
