/**
 * Stub IdP benchmark (autocannon, loopback, bounded): GET /.well-known/openid-configuration, GET /jwks and
 * client-credentials POST /token (opaque and RFC 9068 JWT access tokens). Discovery and JWKS are compared with the
 * floor of issue 17 item 7: a bare oidc-provider of the same configuration (our createProvider, served by
 * node:http without our cache or Express); and both against a bare node:http server answering, from memory, the same
 * bytes with the same headers (issue #29: ≥ 0.8×). All measured in the same run; rounds alternate so load from other processes hits
 * each alike. Usage: npx tsx bench/idp.ts [--duration 2] [--rounds 3] [--connections 10]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createAccountDirectory } from '../idp/accounts.js';
import { createMemoryStore } from '../idp/adapters/memory.js';
import { buildIdp } from '../idp/app.js';
import { createIdp } from '../idp/create-idp.js';
import { generateSigningJwks } from '../idp/keys.js';
import { resolveIdpConfig } from '../idp/settings.js';

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
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
  headers?: Record<string, string>;
  duration: number;
  connections: number;
}): Promise<Figures> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: opts.headers,
    duration: opts.duration,
    connections: opts.connections,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Headers node:http writes itself (or that belong to the connection), left to the bare server's node:http. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The baseline: a bare node:http server answering, from memory, exactly the bytes and headers the IdP answered for
 * `url` (the response is fetched once). What is left between the two is the IdP's own per-request work.
 */
async function bareCopyOf(url: string): Promise<{ url: string; server: Server }> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !TRANSPORT_HEADERS.has(name)));
  const server = createServer((_req, res) => {
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** The floor: oidc-provider configured exactly as the IdP's (same builder), served bare by node:http. */
async function bareProvider(): Promise<{ url: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = resolveIdpConfig({ issuer: url, clientId: 'bench', clientSecret: 'bench-secret' });
  const context = { issuer: url, mountPath: '', jwks: await generateSigningJwks(), accounts: createAccountDirectory() };
  const built = await buildIdp(config, context, createMemoryStore());
  const handler = built.provider.callback();
  server.on('request', (req, res) => void handler(req, res));
  return { url, server };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
    },
  });
  const duration = Math.min(30, Math.max(1, Number(values.duration)));
  const rounds = Math.min(10, Math.max(1, Number(values.rounds)));
  const connections = Math.min(100, Math.max(1, Number(values.connections)));

  const opaque = await createIdp({ port: 0, clientId: 'bench', clientSecret: 'bench-secret' });
  const jwt = await createIdp({
    port: 0,
    clientId: 'bench',
    clientSecret: 'bench-secret',
    accessTokenFormat: 'jwt',
    defaultAudience: 'http://127.0.0.1:3000/api/v1',
  });
  const discovery = `${opaque.url}/.well-known/openid-configuration`;
  const bare = await bareCopyOf(discovery);
  const bareJwks = await bareCopyOf(`${opaque.url}/jwks`);
  const floor = await bareProvider();
  const tokenRequest = {
    method: 'POST' as const,
    body: 'grant_type=client_credentials&scope=registrations%3Aread',
    headers: {
      authorization: `Basic ${Buffer.from('bench:bench-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
  };
  for (const idp of [opaque, jwt]) {
    const check = await fetch(`${idp.url}/token`, tokenRequest);
    if (check.status !== 200) throw new Error(`setup token request answered ${check.status}: ${await check.text()}`);
  }

  // Each IdP scenario right after its baseline, so the load other processes put on the machine hits both alike.
  const scenarios = {
    baseline: { label: 'bare node:http, same discovery bytes+headers', url: bare.url },
    discovery: { label: 'idp GET discovery', url: discovery },
    baselineJwks: { label: 'bare node:http, same JWKS bytes+headers', url: bareJwks.url },
    jwks: { label: 'idp GET /jwks', url: `${opaque.url}/jwks` },
    floorDiscovery: {
      label: 'bare oidc-provider GET discovery (floor)',
      url: `${floor.url}/.well-known/openid-configuration`,
    },
    floorJwks: { label: 'bare oidc-provider GET /jwks (floor)', url: `${floor.url}/jwks` },
    tokenOpaque: { label: 'idp POST /token client_credentials', url: `${opaque.url}/token`, ...tokenRequest },
    tokenJwt: { label: 'idp POST /token client_credentials (JWT)', url: `${jwt.url}/token`, ...tokenRequest },
  };
  type Key = keyof typeof scenarios;
  const keys = Object.keys(scenarios) as Key[];
  for (const k of keys) await load({ ...scenarios[k], duration: 1, connections }); // warm-up (JIT)

  const all = Object.fromEntries(keys.map((k) => [k, [] as Figures[]])) as Record<Key, Figures[]>;
  for (let round = 0; round < rounds; round += 1) {
    for (const k of keys) all[k].push(await load({ ...scenarios[k], duration, connections }));
  }

  const mean = (xs: Figures[], f: keyof Figures) => xs.reduce((a, x) => a + x[f], 0) / xs.length;
  const sum = (xs: Figures[], f: keyof Figures) => xs.reduce((a, x) => a + x[f], 0);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `idp benchmark: ${rounds} round(s) × ${duration}s per scenario, ${connections} connections, loopback, memory store, Node ${process.version}`,
  );
  // JWKS is compared with the bare copy of the JWKS, everything else with the bare copy of discovery.
  const baselineOf = (k: Key): Key =>
    k === 'jwks' || k === 'floorJwks' || k === 'baselineJwks' ? 'baselineJwks' : 'baseline';
  for (const k of keys) {
    const ratio = median(all[k].map((f, i) => f.rps / all[baselineOf(k)][i].rps));
    out(
      `${scenarios[k].label.padEnd(42)} ${String(Math.round(mean(all[k], 'rps'))).padStart(6)} req/s  p50 ${mean(all[k], 'p50').toFixed(1)} ms  ` +
        `p99 ${mean(all[k], 'p99').toFixed(1)} ms  non-2xx ${sum(all[k], 'non2xx')}  errors ${sum(all[k], 'errors')}  ratio to bare ${ratio.toFixed(2)}`,
    );
  }
  out(
    'ratio = median over rounds of req/s ÷ the bare copy’s req/s (discovery’s; JWKS rows: the JWKS copy’s), measured back to back',
  );
  for (const [idpKey, bareKey] of [
    ['discovery', 'baseline'],
    ['jwks', 'baselineJwks'],
  ] as const) {
    const ratio = median(all[idpKey].map((f, i) => f.rps / all[bareKey][i].rps));
    out(
      `${scenarios[idpKey].label.padEnd(42)} ${ratio.toFixed(2)}× a bare node:http answering the same bytes and headers (target ≥ 0.8×)`,
    );
  }
  for (const [idpKey, floorKey] of [
    ['discovery', 'floorDiscovery'],
    ['jwks', 'floorJwks'],
  ] as const) {
    const ratio = median(all[idpKey].map((f, i) => f.rps / all[floorKey][i].rps));
    out(
      `${scenarios[idpKey].label.padEnd(42)} ${ratio.toFixed(2)}× the bare oidc-provider of the same configuration (target ≥ 1.5×)`,
    );
  }

  for (const server of [bare.server, bareJwks.server, floor.server]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await opaque.close();
  await jwt.close();
  const failures = keys.reduce((a, k) => a + sum(all[k], 'non2xx') + sum(all[k], 'errors'), 0);
  return failures > 0 ? 1 : 0;
}

process.exitCode = await main();
