/**
 * The OpenAPI part of bench/scanner.ts: a generated description of N operations, a local target that serves it
 * correctly, and full `scanner scan openapi` runs measured for wall time, requests and peak memory — at defaults
 * beside `--per-operation` (no shared verdicts: the scan as it was before them), with the requests of each check.
 */
import { createHmac } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { run } from '../scanner/cli.js';
import type { Report } from '../scanner/report/report-types.js';

/** Issue 13's wall time at defaults for 100 operations before the trust work (bench/scanner.ts PREVIOUS). */
const PREVIOUS_OPENAPI_SECONDS = 66;

const HEADERS = {
  'content-type': 'application/json',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'ratelimit-policy': '"default";q=100000;w=60',
  ratelimit: '"default";r=99999;t=60',
};

/** `collections` × (list, create, read, delete): 4 operations each, every one behind bearer JWT. */
function description(collections: number): unknown {
  const paths: Record<string, unknown> = {};
  const ok = { '200': { description: 'ok' } };
  for (let i = 0; i < collections; i += 1) {
    paths[`/c${i}`] = {
      get: { operationId: `list${i}`, responses: ok },
      post: {
        operationId: `create${i}`,
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' } } },
            },
          },
        },
        responses: ok,
      },
    };
    paths[`/c${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `read${i}`, responses: ok },
      delete: { operationId: `delete${i}`, responses: ok },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'bench', version: '1' },
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

function signed(secret: string, sub: string): string {
  const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub, exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

interface Measured {
  ms: number;
  requests: number;
  /**
   * Attempts each check family recorded (jwt.*, misconfiguration.cors…), each counted once: an answer shared between
   * checks (an operation's answer as given) counts for every check that recorded it, though it was sent once.
   */
  byFamily: Map<string, number>;
  results: number;
  peakRssMb: number;
  peakHeapMb: number;
}

export async function benchOpenapi(
  dir: string,
  operations: number,
  token: string,
  verify: (header: string | undefined) => boolean,
): Promise<void> {
  const collections = Math.ceil(operations / 4);
  const spec = join(dir, 'bench.openapi.json');
  await writeFile(spec, JSON.stringify(description(collections)));
  // The bench token (sub "bench") owns every object; the other identity's token is verified but owns none.
  const other = signed('another-key-the-target-also-trusts', 'other');
  const server = createServer((req, res) => {
    const authorization = req.headers.authorization;
    const user = verify(authorization) ? 'bench' : authorization === `Bearer ${other}` ? 'other' : undefined;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const item = /^\/api\/c(\d+)\/([^/]+)$/.exec(path);
    const list = /^\/api\/c(\d+)$/.exec(path);
    const send = (status: number, body: unknown): void => void res.writeHead(status, HEADERS).end(JSON.stringify(body));
    if (!item && !list) return send(404, { error: 'not found' });
    const allowed = list ? ['GET', 'POST'] : ['GET', 'DELETE'];
    if (!allowed.includes(req.method ?? '')) return send(405, { error: 'method not allowed' });
    if (!user) return send(401, { error: 'unauthorized' });
    if (list)
      return req.method === 'GET'
        ? send(200, user === 'bench' ? [{ id: `o${list[1]}` }] : [])
        : send(201, { id: `o${list[1]}` });
    if (user !== 'bench' || item![2] !== `o${item![1]}`) return send(404, { error: 'not found' });
    return req.method === 'GET' ? send(200, { id: item![2] }) : send(204, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;

  const scanOnce = async (flags: string[]): Promise<Measured> => {
    const file = join(dir, 'openapi-report.json');
    const sink = { write: () => true };
    let peakRss = process.memoryUsage().rss;
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      peakRss = Math.max(peakRss, usage.rss);
      peakHeap = Math.max(peakHeap, usage.heapUsed);
    }, 25);
    const started = performance.now();
    const code = await run(
      [
        'scan',
        'openapi',
        spec,
        '--base-url',
        base,
        '--security-schemes',
        `bearer=${token}`,
        '--as-other',
        `Authorization: Bearer ${other}`,
        '--no-progress',
        '--report-format',
        'json',
        '--report-file',
        file,
        ...flags,
      ],
      { stdout: sink, stderr: sink, env: {} },
    );
    const ms = performance.now() - started;
    clearInterval(sampler);
    if (code !== 0) throw new Error(`scan openapi exited ${code}`);
    const report = JSON.parse(await readFile(file, 'utf8')) as Report;
    const seen = new Set<string>();
    const byFamily = new Map<string, number>();
    for (const item of report.reports) {
      const fresh = item.scans.filter((scan) => !seen.has(scan.id));
      for (const scan of fresh) seen.add(scan.id);
      const family = item.id.startsWith('jwt.') ? 'jwt.*' : item.id;
      byFamily.set(family, (byFamily.get(family) ?? 0) + fresh.length);
    }
    return {
      ms,
      requests: report.options.requestsSent as number,
      byFamily,
      results: report.reports.length,
      peakRssMb: peakRss / 2 ** 20,
      peakHeapMb: peakHeap / 2 ** 20,
    };
  };

  try {
    await scanOnce(['--rate', '100000/s']); // warm-up: module loading is not part of a scan
    const variants: { label: string; flags: string[] }[] = [
      { label: 'default (50/s per host, concurrency 8)', flags: [] },
      { label: '--concurrency 1', flags: ['--concurrency', '1'] },
      { label: '--rate 100000/s (limiter out of the way)', flags: ['--rate', '100000/s'] },
      { label: '--rate 100000/s --concurrency 1', flags: ['--rate', '100000/s', '--concurrency', '1'] },
      // Every check on every operation: the scan before shared verdicts (jwt.* once per token verifier), same run.
      { label: '--per-operation (no shared verdicts)', flags: ['--per-operation'] },
    ];
    const measured: Measured[] = [];
    for (const variant of variants) measured.push(await scanOnce(variant.flags));
    const first = measured[0];
    console.log(
      `full scan openapi, ${collections * 4} operations (bearer JWT, --as-other), ${first.results} check results, ${first.requests} requests:`,
    );
    for (const [index, variant] of variants.entries()) {
      const m = measured[index];
      const requests = m.requests === first.requests ? '' : ` (${m.requests} requests)`;
      console.log(
        `  ${variant.label.padEnd(42)} ${m.ms.toFixed(0).padStart(7)} ms  ${((m.requests / m.ms) * 1000).toFixed(1).padStart(7)} req/s  peak RSS ${m.peakRssMb.toFixed(0)} MB, heap ${m.peakHeapMb.toFixed(0)} MB${requests}`,
      );
    }
    console.log(
      `  ratio concurrency 1 / default: ${(measured[1].ms / measured[0].ms).toFixed(2)}× at 50/s, ${(measured[3].ms / measured[2].ms).toFixed(2)}× without the limiter`,
    );
    const seconds = first.ms / 1000;
    const perOperation = measured[4];
    const count = collections * 4;
    console.log(
      `  at defaults: ${(first.requests / count).toFixed(1)} requests per operation, ${seconds.toFixed(1)} s wall time (previously ${PREVIOUS_OPENAPI_SECONDS} s, ${(seconds / PREVIOUS_OPENAPI_SECONDS).toFixed(2)}×)`,
    );
    console.log(
      `  --per-operation in this run: ${(perOperation.requests / count).toFixed(1)} requests per operation, ${(perOperation.ms / 1000).toFixed(1)} s; defaults / per-operation: ${(first.requests / perOperation.requests).toFixed(2)}× requests, ${(first.ms / perOperation.ms).toFixed(2)}× wall time`,
    );
    console.log(
      '  attempts per operation by check (a shared answer counts for each check), defaults vs --per-operation:',
    );
    const families = [...perOperation.byFamily.keys()].sort(
      (a, b) => (perOperation.byFamily.get(b) ?? 0) - (perOperation.byFamily.get(a) ?? 0),
    );
    for (const family of families) {
      const now = first.byFamily.get(family) ?? 0;
      const before = perOperation.byFamily.get(family) ?? 0;
      if (now === 0 && before === 0) continue;
      console.log(
        `    ${family.padEnd(38)} ${(now / count).toFixed(2).padStart(6)}  ${(before / count).toFixed(2).padStart(6)}`,
      );
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
