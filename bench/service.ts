/**
 * Service benchmark (autocannon, loopback, bounded): authenticated GET …/registrations/{id} and POST
 * …/registrations on the embedded store, each as a ratio against a bare Express + express-jwt + jwks-rsa route
 * verifying the same token, measured in the same run. Rounds alternate baseline and service so load from other
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
import type { ApiDeps } from '../server/deps.js';
import { createMemoryStore } from '../server/store/memory-store.js';
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

async function run(): Promise<number> {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '2' }, rounds: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' } },
  });
  const duration = Math.min(30, Math.max(1, Number(values.duration)));
  const rounds = Math.min(15, Math.max(1, Number(values.rounds)));
  const connections = Math.min(100, Math.max(1, Number(values.connections)));

  const auth = await startTestAuth();
  // A limit that never trips: counters are still kept, so their cost is measured.
  const config = loadServiceConfig(auth.env({ RATE_LIMIT_PER_MINUTE_ENTERPRISE: '100000000' }));
  const store = createMemoryStore();
  const deps: ApiDeps = { config, store, logger: silentLogger, clock: () => new Date() };
  const service = await listen(createApp(deps));
  const bare = await listen(bareApp(auth));
  const org = await store.organizations.create({ name: 'Bench', plan: 'enterprise' });
  await store.grants.grant({ organizationId: org.id, subject: 'alice', isDefault: true });
  const token = await auth.token({ exp: Math.floor(Date.now() / 1000) + 3600 });
  const base = `${service.url}/api/v1/organizations/${org.id}/registrations`;
  const body = JSON.stringify({ name: 'Bench app', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } });
  const created = await fetch(base, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  if (created.status !== 201) throw new Error(`setup POST answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const check = await fetch(`${bare.url}/bare`, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`bare route answered ${check.status}`);

  // Warm both (JIT, key caches) before measuring.
  await load({ url: `${bare.url}/bare`, token, duration: 1, connections });
  await load({ url: `${base}/${id}`, token, duration: 1, connections });

  const all: Record<'baseline' | 'get' | 'post', Figures[]> = { baseline: [], get: [], post: [] };
  for (let round = 0; round < rounds; round += 1) {
    all.baseline.push(await load({ url: `${bare.url}/bare`, token, duration, connections }));
    all.get.push(await load({ url: `${base}/${id}`, token, duration, connections }));
    all.post.push(await load({ url: base, method: 'POST', body, token, duration, connections }));
  }

  const sum = (xs: Figures[], k: keyof Figures) => xs.reduce((a, f) => a + f[k], 0);
  const mean = (xs: Figures[], k: keyof Figures) => sum(xs, k) / xs.length;
  // Per-round ratios (baseline and service measured back to back), summarised by their median: robust to
  // load from other processes, which this shared machine has plenty of.
  const ratios = (k: 'get' | 'post') => ({
    throughput: median(all[k].map((f, i) => f.rps / all.baseline[i].rps)),
    cost: median(all[k].map((f, i) => all.baseline[i].costUs / f.costUs)),
  });
  const labels = { baseline: 'bare express-jwt + jwks-rsa GET', get: 'service GET /registrations/{id}', post: 'service POST /registrations' };
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`service benchmark: ${rounds} round(s) × ${duration}s per scenario, ${connections} connections, loopback, embedded store, Node ${process.version}`);
  for (const k of ['baseline', 'get', 'post'] as const) {
    const r = k === 'baseline' ? { throughput: 1, cost: 1 } : ratios(k);
    out(
      `${labels[k].padEnd(34)} ${String(Math.round(mean(all[k], 'rps'))).padStart(6)} req/s  ${mean(all[k], 'costUs').toFixed(0).padStart(4)} µs CPU/req  ` +
        `p50 ${mean(all[k], 'p50').toFixed(1)} ms  p99 ${mean(all[k], 'p99').toFixed(1)} ms  non-2xx ${sum(all[k], 'non2xx')}  ` +
        `ratio: throughput ${r.throughput.toFixed(2)}, CPU efficiency ${r.cost.toFixed(2)}`,
    );
  }
  out('ratios are medians of per-round service/baseline figures; ≥ 1.00 means at least as fast as the bare route');

  for (const s of [service.server, bare.server]) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  await auth.close();
  await store.close();
  const failures = sum(all.get, 'non2xx') + sum(all.baseline, 'non2xx');
  return failures > 0 ? 1 : 0;
}

process.exitCode = await run();
