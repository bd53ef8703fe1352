/**
 * Scanner benchmark (loopback, bounded): a full `scanner scan curl` of a local JWT-protected target (HS256, strong
 * secret, verified on every request) at default settings (50 req/s per host, concurrency 8) and at --concurrency 1
 * — wall time and requests sent, the ratio of the two — then jwt.weak_secret's worker over a generated candidate
 * file in candidates/s, as a ratio against a plain HMAC loop on the main thread in the same run.
 * Then `scanner scan openapi` of a generated OpenAPI 3.1 description of N operations (default 100: 25 collections ×
 * list, create, read, delete) against a local target (HS256 verified, owner checks, rate-limit headers), with
 * --as-other, every built-in check: wall time, requests and peak memory (RSS and heap of this process, which also
 * hosts the target) at concurrency 1 and at the default, at the default rate and with the limiter out of the way.
 * Then the vulnerable demo API at defaults: requests per operation of each check (bench/scanner-demo.ts), and last a
 * GraphQL scan of a 30-field schema at defaults: requests per field and wall time (bench/scanner-graphql.ts), and
 * the injection family's requests per injectable input on the demo's two twins (bench/scanner-inputs.ts).
 * The curl and openapi scans print requests per operation and the wall time at defaults beside the figures issue 13
 * reported before the scanner's safety and budget work (PREVIOUS); for a same-run comparison, run this file in a
 * checkout of the older commit right after.
 * First, the built scanner's start-up beside `node -e 0` and 24 single-endpoint targets against a previous build
 * (bench/scanner-startup.ts).
 * Usage: npx tsx bench/scanner.ts [--rounds 2] [--candidates 200000] [--operations 100] [--previous <git ref> | '']
 *          [--only startup|curl|secret|openapi|demo|graphql|inputs]
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { run } from '../scanner/cli.js';
import type { Report } from '../scanner/report/report-types.js';
import { crackHmacSecret } from '../checks/support/jwt/crack-hmac-secret.js';
import { parseUnverified } from '../scanner/compact-jwt.js';
import { benchDemo } from './scanner-demo.js';
import { benchGraphql } from './scanner-graphql.js';
import { benchInputs } from './scanner-inputs.js';
import { benchOpenapi } from './scanner-openapi.js';
import { benchStartup, PREVIOUS_REF } from './scanner-startup.js';

/** Issue 13's figures at defaults before the trust work: 63 requests for one JWT endpoint, 66 s for 100 operations. */
export const PREVIOUS = { curlRequests: 63, openapiDefaultSeconds: 66 } as const;

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    candidates: { type: 'string', default: '200000' },
    operations: { type: 'string', default: '100' },
    only: { type: 'string' },
    previous: { type: 'string', default: PREVIOUS_REF },
  },
});
const rounds = Math.max(1, Number(values.rounds));
const candidateCount = Math.max(1000, Number(values.candidates));

const secret = randomBytes(32).toString('base64url');
const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const signingInput = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'bench', exp: Math.floor(Date.now() / 1000) + 3600 })}`;
const token = `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;

function verify(header: string | undefined): boolean {
  const value = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  const parts = value?.split('.');
  if (!parts || parts.length !== 3) return false;
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function startTarget(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const ok = req.method === 'GET' && verify(req.headers.authorization);
    res.writeHead(ok ? 200 : req.method === 'GET' ? 401 : 405, {
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
      'set-cookie': 'session=abc; Path=/; HttpOnly; Secure; SameSite=Strict',
    });
    res.end(ok ? '{"items":[]}' : '{"error":"unauthorized"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/items`, server };
}

async function scanOnce(
  url: string,
  dir: string,
  extra: string[],
): Promise<{ ms: number; requests: number; checks: number }> {
  const file = join(dir, 'report.json');
  const sink = { write: () => true };
  const started = performance.now();
  const code = await run(
    [
      'scan',
      'curl',
      url,
      '-H',
      `Authorization: Bearer ${token}`,
      '--no-progress',
      '--report-format',
      'json',
      '--report-file',
      file,
      ...extra,
    ],
    {
      stdout: sink,
      stderr: sink,
      env: {},
    },
  );
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`scan exited ${code}`);
  const report = JSON.parse(await readFile(file, 'utf8')) as Report;
  return { ms, requests: report.options.requestsSent as number, checks: report.reports.length };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function benchScans(dir: string): Promise<void> {
  const { url, server } = await startTarget();
  try {
    await scanOnce(url, dir, []); // warm-up: module loading and the first worker start are not part of a scan
    const variants: { label: string; flags: string[] }[] = [
      { label: 'default (50/s per host, concurrency 8)', flags: [] },
      { label: '--concurrency 1', flags: ['--concurrency', '1'] },
      { label: '--rate 100000/s (limiter out of the way)', flags: ['--rate', '100000/s'] },
      { label: '--rate 100000/s --concurrency 1', flags: ['--rate', '100000/s', '--concurrency', '1'] },
    ];
    const times = variants.map(() => [] as number[]);
    let requests = 0;
    let checks = 0;
    for (let i = 0; i < rounds; i += 1) {
      // Round-robin so load from other processes hits every variant alike.
      for (const [index, variant] of variants.entries()) {
        const result = await scanOnce(url, dir, variant.flags);
        times[index].push(result.ms);
        if (requests && result.requests !== requests)
          console.log(`  note: ${variant.label} sent ${result.requests} requests, not ${requests}`);
        requests = result.requests;
        checks = result.checks;
      }
    }
    const medians = times.map(median);
    console.log(
      `full scan curl, JWT-protected target (${checks} check results, ${requests} requests each), median of ${rounds}:`,
    );
    for (const [index, variant] of variants.entries()) {
      const ms = medians[index];
      console.log(
        `  ${variant.label.padEnd(42)} ${ms.toFixed(0).padStart(6)} ms  ${((requests / ms) * 1000).toFixed(1).padStart(7)} req/s`,
      );
    }
    console.log(
      `  ratio concurrency 1 / default: ${(medians[1] / medians[0]).toFixed(2)}× at 50/s, ${(medians[3] / medians[2]).toFixed(2)}× without the limiter`,
    );
    console.log(
      `  requests per operation: ${requests} (previously ${PREVIOUS.curlRequests}, ${(requests / PREVIOUS.curlRequests).toFixed(2)}×); wall time at defaults ${(medians[0] / 1000).toFixed(1)} s`,
    );
  } finally {
    server.close();
  }
}

async function benchWeakSecret(dir: string): Promise<void> {
  const file = join(dir, 'secrets.txt');
  const candidates = Array.from(
    { length: candidateCount },
    (_, i) => `candidate-${i}-${randomBytes(6).toString('hex')}`,
  );
  await writeFile(file, `${candidates.join('\n')}\n`);
  const parsed = parseUnverified(token);
  if (!parsed.ok) throw new Error(parsed.reason);

  // Baseline: the same HMACs in a plain loop on the main thread, from memory.
  const expected = Buffer.from(token.split('.')[2], 'base64url');
  let started = performance.now();
  for (const candidate of candidates) {
    if (createHmac('sha256', candidate).update(signingInput).digest().equals(expected))
      throw new Error('unexpected match');
  }
  const baselineS = (performance.now() - started) / 1000;

  started = performance.now();
  const outcome = await crackHmacSecret(parsed.jwt, 'HS256', { candidates: [], files: [file] });
  const workerS = (performance.now() - started) / 1000;
  if (outcome.match) throw new Error('unexpected match');
  const baselineRate = candidates.length / baselineS;
  const workerRate = outcome.tried / workerS;
  console.log(`jwt.weak_secret over a ${candidates.length}-line file (HS256, no match):`);
  console.log(`  baseline, inline HMAC loop from memory: ${baselineRate.toFixed(0)} candidates/s`);
  console.log(
    `  worker thread reading the file:         ${workerRate.toFixed(0)} candidates/s (${outcome.tried} tried, incl. worker start)`,
  );
  console.log(`  ratio worker / baseline: ${(workerRate / baselineRate).toFixed(2)}×`);
}

const dir = await mkdtemp(join(tmpdir(), 'scanner-bench-'));
try {
  if (!values.only || values.only === 'startup')
    await benchStartup({ rounds: Math.max(5, rounds), previous: values.previous });
  if (!values.only || values.only === 'curl') await benchScans(dir);
  if (!values.only || values.only === 'secret') await benchWeakSecret(dir);
  if (!values.only || values.only === 'openapi')
    await benchOpenapi(dir, Math.max(4, Number(values.operations)), token, verify);
  if (!values.only || values.only === 'demo') await benchDemo(dir);
  if (!values.only || values.only === 'graphql') await benchGraphql(dir);
  if (!values.only || values.only === 'inputs') await benchInputs(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
