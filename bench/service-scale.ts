/**
 * The scale scenario of the service bench (issue 26, "flat at scale"): a 3-registration organization's reads — its
 * list, one registration by id, its capabilities — next to a large organization holding the bulk of the data, p50
 * and p99 measured side by side (rounds alternate) with the large one at 100 registrations and at the scale size
 * (100,000 on the embedded store, 20,000 on MongoDB), and the database's CPU while both deploys idle (each runs its
 * internal surface, so the outbox drain's periodic reads are part of "idle"). The database's CPU is read from
 * /proc for the process FERRETDB_PID names (.ci/ferretdb.sh exports it) and, on FerretDB's PostgreSQL backend, the
 * postmaster FERRETDB_POSTGRES_PID names with its children; without FERRETDB_PID that figure is not measured.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import autocannon from 'autocannon';
import type express from 'express';
import { asDocument, bulkRegistration } from './bulk-registration.js';
import { busyTicks, procStat } from './proc-stat.js';
import type { ApiDeps, Store } from '../server/deps.js';
import type { TestAuth } from '../test/support/test-auth.js';

/** What the scenario is built from (the built service's modules, loaded by bench/service.ts). */
export interface ScaleModules {
  createApp(deps: ApiDeps): express.Express;
  loadServiceConfig(env: Record<string, string | undefined>): ApiDeps['config'];
  createLogger: typeof import('../lib/logger.js').createLogger;
  createInternalSurface(deps: ApiDeps): { stop(): Promise<void> };
  createMemoryStore(): Store;
  createMongoStore(
    uri: string,
    options: { dbName: string; queryTimeoutMs?: number },
  ): Promise<Store & { connection: import('mongoose').Connection; reset(): Promise<void> }>;
  upgradeDirectories(connection: import('mongoose').Connection): Promise<number>;
}

export interface ScaleOptions {
  duration: number;
  rounds: number;
  connections: number;
  embeddedSize: number;
  mongoSize: number;
  mongoUri?: string;
  /** Seconds both deploys idle while the database's CPU is read. */
  idleSeconds: number;
}

interface Deploy {
  label: string;
  size: number;
  store: Store;
  server: Server;
  stop(): Promise<void>;
  reads: { key: string; url: string }[];
}

interface Latency {
  p50: number;
  p99: number;
  non2xx: number;
  /** Whether any request was answered within the run (none: each took longer than the run itself). */
  answered: boolean;
}

/** The longest wait after a run for the requests it cut off (the service's query limit, 5 s by default, ends them). */
const SETTLE_MAX_MS = 5000;

const READS = ['list', 'by id', 'capabilities'] as const;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Fills the large organization: through the repository on the embedded store, as db:migrate leaves it on MongoDB. */
async function fill(modules: ScaleModules, store: Store, organizationId: string, size: number): Promise<void> {
  if (store.kind === 'memory') {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < size; i += 1) {
      batch.push(store.registrations.upsert(bulkRegistration(organizationId, i)));
      if (batch.length >= 500) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
    return;
  }
  const mongo = store as Awaited<ReturnType<ScaleModules['createMongoStore']>>;
  const registrations = mongo.connection.db!.collection<{ _id: string }>('registrations');
  for (let i = 0; i < size; i += 1000)
    await registrations.insertMany(
      Array.from({ length: Math.min(1000, size - i) }, (_, j) => asDocument(bulkRegistration(organizationId, i + j))),
    );
  // What the migration writes for data it finds: each organization's directory (an overflowed one above 1000).
  await modules.upgradeDirectories(mongo.connection);
}

async function deploy(
  modules: ScaleModules,
  auth: TestAuth,
  token: string,
  label: string,
  size: number,
  store: Store,
): Promise<Deploy> {
  const config = modules.loadServiceConfig(auth.env({ RATE_LIMIT_PER_MINUTE_PRO: '100000000' }));
  const deps: ApiDeps = {
    config,
    store,
    logger: modules.createLogger({ level: 'silent', name: 'registration-service' }),
    clock: () => new Date(),
  };
  const server = createServer(modules.createApp(deps));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const internal = modules.createInternalSurface(deps);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/organizations`;
  const large = await store.organizations.create({ name: 'Large', plan: 'enterprise' });
  const small = await store.organizations.create({ name: 'Small', plan: 'pro' });
  for (const organization of [large, small])
    await store.grants.grant({ organizationId: organization.id, subject: 'alice', isDefault: false });
  // The bulk first, then the small organization's registrations: an organization that joins a deploy already holding
  // the data. Its records are then stored after the bulk, where a store that scans in insertion order (FerretDB's
  // SQLite tables, even for `{ _id }`) meets them last; written before it, they were found at once and the read by
  // id looked flat when it is not.
  await fill(modules, store, large.id, size);
  const ids: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const answer = await fetch(`${base}/${small.id}/registrations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Small app ${i}`,
        templateId: 'tpl_web',
        config: { redirectUris: ['https://app.example.com/cb'] },
      }),
    });
    if (answer.status !== 201)
      throw new Error(`setup POST (${label}) answered ${answer.status}: ${await answer.text()}`);
    ids.push(((await answer.json()) as { id: string }).id);
  }
  const at = `${base}/${small.id}`;
  return {
    label,
    size,
    store,
    server,
    async stop() {
      await internal.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    reads: [
      { key: 'list', url: `${at}/registrations` },
      { key: 'by id', url: `${at}/registrations/${ids[1]}` },
      { key: 'capabilities', url: `${at}/capabilities` },
    ],
  };
}

async function latency(url: string, token: string, options: ScaleOptions): Promise<Latency> {
  const result = await autocannon({
    url,
    headers: { authorization: `Bearer ${token}` },
    duration: options.duration,
    connections: options.connections,
    workers: 1,
  });
  const answered = result.requests.total > 0;
  // Requests cut off at the end of the run are still being served: let them finish before the next run starts, so
  // their work is not billed to the other deploy's figures.
  await new Promise((resolve) =>
    setTimeout(resolve, answered ? Math.min(SETTLE_MAX_MS, result.latency.max) : SETTLE_MAX_MS),
  );
  // A run in which nothing was answered has no percentiles (autocannon reports 0): each request took the run's
  // duration at least, so that is the figure kept, and the line says so.
  const floor = answered ? 0 : options.duration * 1000;
  return {
    p50: Math.max(result.latency.p50, floor),
    p99: Math.max(result.latency.p99, floor),
    non2xx: result.non2xx + result.errors,
    answered,
  };
}

/**
 * Busy seconds (user + system) of a process and of its children that ended, from /proc, or undefined when it cannot
 * be read; with `withChildren`, also of its live children (PostgreSQL serves each connection in a child process).
 */
function cpuSeconds(pid: string, withChildren = false): number | undefined {
  const own = procStat(pid);
  if (!own) return undefined;
  let ticks = busyTicks(own, true);
  if (withChildren)
    for (const child of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      const fields = procStat(child);
      if (fields?.[1] === pid) ticks += busyTicks(fields, true);
    }
  return ticks / 100;
}

/** The database's busy seconds: FerretDB, and the PostgreSQL cluster under it when it has one. */
function databaseCpuSeconds(): number | undefined {
  const pid = process.env.FERRETDB_PID;
  const ferretdb = pid ? cpuSeconds(pid) : undefined;
  if (ferretdb === undefined) return undefined;
  const postgres = process.env.FERRETDB_POSTGRES_PID;
  if (!postgres) return ferretdb;
  const cluster = cpuSeconds(postgres, true);
  return cluster === undefined ? undefined : ferretdb + cluster;
}

/** Measures the small organization's reads on two deploys side by side; report lines. */
async function compare(token: string, small: Deploy, large: Deploy, options: ScaleOptions): Promise<string[]> {
  const figures = new Map<string, Latency[]>();
  const push = (key: string, l: Latency) => figures.set(key, [...(figures.get(key) ?? []), l]);
  for (const d of [small, large])
    for (const read of d.reads) await latency(read.url, token, { ...options, duration: 1 });
  for (let round = 0; round < options.rounds; round += 1)
    for (const d of [small, large])
      for (const read of d.reads) push(`${d.size} ${read.key}`, await latency(read.url, token, options));
  const lines: string[] = [];
  for (const read of READS) {
    const at = (size: number) => figures.get(`${size} ${read}`) ?? [];
    const p = (size: number, k: 'p50' | 'p99') => median(at(size).map((l) => l[k]));
    const errors = (size: number) => at(size).reduce((n, l) => n + l.non2xx, 0);
    const silent = (size: number) => at(size).filter((l) => !l.answered).length;
    const ratio = p(large.size, 'p99') / Math.max(p(small.size, 'p99'), 0.5);
    lines.push(
      `${small.label} small organization's ${read.padEnd(12)} at ${String(small.size).padStart(6)}: p50 ${p(small.size, 'p50').toFixed(1).padStart(7)} ms  p99 ${p(small.size, 'p99').toFixed(1).padStart(7)} ms` +
        `  | at ${String(large.size).padStart(6)}: p50 ${p(large.size, 'p50').toFixed(1).padStart(7)} ms  p99 ${p(large.size, 'p99').toFixed(1).padStart(7)} ms` +
        `  p99 ratio ${ratio.toFixed(2)} (target ≤ 2: ${ratio <= 2 ? 'met' : 'NOT met'})${errors(large.size) + errors(small.size) > 0 ? `  non-2xx ${errors(small.size)} / ${errors(large.size)}` : ''}` +
        `${silent(large.size) + silent(small.size) > 0 ? `  runs without any answer (figure = the run's length, at least) ${silent(small.size)} / ${silent(large.size)}` : ''}`,
    );
  }
  return lines;
}

export async function runScale(
  modules: ScaleModules,
  auth: TestAuth,
  token: string,
  options: ScaleOptions,
): Promise<string[]> {
  const lines: string[] = [];
  const embedded = [
    await deploy(modules, auth, token, 'embedded', 100, modules.createMemoryStore()),
    await deploy(modules, auth, token, 'embedded', options.embeddedSize, modules.createMemoryStore()),
  ];
  lines.push(...(await compare(token, embedded[0], embedded[1], options)));
  for (const d of embedded) await d.stop();

  if (options.mongoUri) {
    const stores: Awaited<ReturnType<ScaleModules['createMongoStore']>>[] = [];
    const mongo: Deploy[] = [];
    for (const size of [100, options.mongoSize]) {
      const store = await modules.createMongoStore(options.mongoUri, {
        dbName: `gatehouse_bench_scale_${process.pid}_${size}`,
      });
      await store.reset();
      stores.push(store);
      mongo.push(await deploy(modules, auth, token, 'mongo', size, store));
    }
    lines.push(...(await compare(token, mongo[0], mongo[1], options)));
    const before = databaseCpuSeconds();
    await new Promise((resolve) => setTimeout(resolve, options.idleSeconds * 1000));
    const after = databaseCpuSeconds();
    lines.push(
      before === undefined || after === undefined
        ? 'mongo database CPU while both deploys idle: not measured (set FERRETDB_PID to the database process)'
        : `mongo database CPU while both deploys idle (${options.idleSeconds} s, outbox drains every 5 s, ${options.mongoSize} + 100 registrations): ${(((after - before) / options.idleSeconds) * 100).toFixed(1)} %`,
    );
    for (const d of mongo) await d.stop();
    for (const store of stores) {
      await store.connection.dropDatabase();
      await store.close();
    }
  }
  return lines;
}
