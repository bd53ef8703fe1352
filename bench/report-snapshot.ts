/**
 * Scanner reports as comparable snapshots: runs the demo scans in-process (the vulnerable demo API and its secure twin
 * with `scan openapi`, a `scan curl` of one demo operation, the service's own OpenAPI document as `npm run scan:self`
 * scans it, and a `scan curl` of the service behind a verifier that ignores signatures) and prints each report with
 * what changes from run to run taken out (times, attempt ids, durations, tokens, generated ids). Refactors of the
 * runner compare a snapshot taken before with one taken after:
 *
 *   npx tsx bench/report-snapshot.ts > before.json   # on the old commit
 *   npx tsx bench/report-snapshot.ts > after.json && diff before.json after.json
 *
 * Run it twice on one commit first: what still differs is the scans' own nondeterminism (checks racing on one
 * operation's state), not the change. With `--concurrency 1` the checks run one at a time in schedule order, so the
 * reports repeat exactly and a change in that order shows — but for timing checks (resource.redos) on a loaded
 * machine, which may send one request more or less.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Report } from '../scanner/report/report-types.js';
import { withRealPathValues } from '../stack/self-scan-document.js';
import { startDemoTarget } from '../test/fixtures/targets/demo-api-target.js';
import { startWeakVerifierProxy } from '../test/fixtures/weak-verifier/weak-verifier-proxy.js';
import { scanToReport } from '../test/scanner/support/run-cli.js';
import { startService } from '../test/support/service-harness.js';

type Snapshot = Record<string, unknown>;

const { values } = parseArgs({ options: { concurrency: { type: 'string' } } });
/** `--concurrency 1` makes every scan run one check at a time: its reports then repeat exactly from run to run. */
const SCAN_FLAGS = ['--rate', '2000/s', ...(values.concurrency ? ['--concurrency', values.concurrency] : [])];

/** Values that differ between two runs of the same scan: JWTs, UUIDs, times, ports, generated names and secrets. */
const VOLATILE: [RegExp, string][] = [
  [/eyJ[\w-]+\.[\w-]*\.[\w-]*/g, '<jwt>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>'],
  [/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'],
  [/\d+(\.\d+)? ?ms\b/g, '<n> ms'],
  [/[0-9a-f]{10,}/gi, '<hex>'],
  [/\b(reg|org|cs|evt|usr)_[A-Za-z0-9]{6,}/g, '$1_<id>'],
];

function scrub(text: string): string {
  return VOLATILE.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

function scrubAll(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map(scrubAll);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, scrubAll(v)]));
  return value;
}

/**
 * What a report says, without what changes between runs: per check and operation its status, reason, findings
 * (issue, status, score, details, evidence, the attempts cited) and the requests it sent (method, URL, answer status;
 * bodies and headers carry generated values). Attempt ids become their first position in the report.
 */
function normalize(report: Report): Snapshot {
  const label = new Map<string, string>();
  report.reports.forEach((item) =>
    item.scans.forEach((scan, j) => {
      if (!label.has(scan.id)) label.set(scan.id, `${item.id} ${item.operation?.id ?? ''} #${j}`);
    }),
  );
  const reports = report.reports
    .map((item) =>
      scrubAll({
        check: item.id,
        operation: item.operation?.id,
        status: item.status,
        reason: item.reason,
        incomplete: item.incomplete,
        coveredBy: item.coveredBy,
        data: item.data,
        issues: item.issues.map((issue) => ({
          id: issue.id,
          status: issue.status,
          score: issue.cvss.score,
          details: issue.details,
          evidence: issue.evidence && {
            ...issue.evidence,
            steps: issue.evidence.steps?.map((step) => ({ ...step, scan: label.get(step.scan) })),
          },
          scans: issue.scans?.map((scan) => `${label.get(scan.id)} ${scan.status}`),
        })),
        scans: item.scans.map(
          (scan) =>
            `${scan.request?.method} ${scan.request?.url} -> ${scan.response?.statusCode ?? scan.error?.message}`,
        ),
      }),
    )
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  const { completeness, options } = report;
  return scrubAll({ options, completeness, reports }) as Snapshot;
}

async function demoScans(snapshots: Record<string, Snapshot>): Promise<void> {
  for (const secure of [false, true]) {
    const demo = await startDemoTarget({ secure });
    try {
      const { report } = await scanToReport([
        'scan',
        'openapi',
        demo.url('/openapi.json'),
        '--security-schemes',
        `bearer=${demo.tokens.alice}`,
        '--as-other',
        `Authorization: Bearer ${demo.tokens.bob}`,
        ...SCAN_FLAGS,
      ]);
      snapshots[`scan openapi, ${secure ? 'secure' : 'vulnerable'} demo API`] = normalize(report);
      if (!secure) {
        const curl = await scanToReport([
          'scan',
          'curl',
          demo.url('/api/account'),
          '-H',
          `Authorization: Bearer ${demo.tokens.alice}`,
          ...SCAN_FLAGS,
        ]);
        snapshots['scan curl, vulnerable demo GET /api/account'] = normalize(curl.report);
      }
    } finally {
      await demo.close();
    }
  }
}

async function serviceScans(snapshots: Record<string, Snapshot>): Promise<void> {
  const service = await startService();
  const server = await new Promise<{ origin: string; close: () => Promise<void> }>((resolve) => {
    const listening = service.app.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
        close: () => new Promise((done) => listening.close(() => done())),
      }),
    );
  });
  try {
    const org = await service.createOrganization('enterprise');
    const token = await service.token();
    const other = await service.token({ sub: 'bob' });
    await service.createOrganization('pro', { subject: 'bob' });
    const created = await service.request
      .post(`/api/v1/organizations/${org.id}/registrations`)
      .set('Authorization', `Bearer ${token}`)
      .send({
        name: 'Self-scan target',
        templateId: 'tpl_web',
        config: { redirectUris: ['https://s.example.com/cb'] },
      });
    const document = withRealPathValues((await service.request.get('/api/v1/openapi.json')).body as object, {
      organizationId: org.id,
      registrationId: (created.body as { id: string }).id,
    });
    const dir = await mkdtemp(join(tmpdir(), 'report-snapshot-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      const { report } = await scanToReport([
        'scan',
        'openapi',
        file,
        '--base-url',
        `${server.origin}/api/v1`,
        '--security-schemes',
        `bearerAuth=${token}`,
        '--as-other',
        `Authorization: Bearer ${other}`,
        ...SCAN_FLAGS,
      ]);
      snapshots['scan openapi, the service (scan:self)'] = normalize(report);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const proxy = await startWeakVerifierProxy(server.origin, (claims) =>
      service.token({ sub: claims.sub, ...(claims.scope ? { scope: claims.scope } : {}) }),
    );
    try {
      const { report } = await scanToReport([
        'scan',
        'curl',
        `${proxy.url}/api/v1/organizations/${org.id}/registrations`,
        '-H',
        `Authorization: Bearer ${token}`,
        ...SCAN_FLAGS,
      ]);
      snapshots['scan curl, the service behind a verifier that ignores signatures'] = normalize(report);
    } finally {
      await proxy.close();
    }
  } finally {
    await server.close();
    await service.close();
  }
}

const snapshots: Record<string, Snapshot> = {};
await demoScans(snapshots);
await serviceScans(snapshots);
process.stdout.write(`${JSON.stringify(snapshots, null, 1)}\n`);
