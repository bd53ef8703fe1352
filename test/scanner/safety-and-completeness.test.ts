import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { bearerOf, json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { acceptsAlgNone, hs256Token } from '../fixtures/targets/jwt-target.js';
import { runCli, scanToReport } from './support/run-cli.js';

const SECRET = 'a-long-random-secret-for-tests-0123456789';
const TOKEN = hs256Token(SECRET);

/** An API whose description has a state-wiping GET and a DELETE; it counts what reaches each. */
function wipingDescription(): unknown {
  const ok = { '200': { description: 'ok' } };
  return {
    openapi: '3.1.0',
    info: { title: 'wipe', version: '1' },
    paths: {
      '/items': { get: { operationId: 'listItems', responses: ok } },
      '/items/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', example: 'i-1' } }],
        get: { operationId: 'readItem', responses: ok },
        delete: { operationId: 'deleteItem', responses: ok },
      },
      '/reset-db': { get: { operationId: 'resetDatabase', summary: 'Wipes the database', responses: ok } },
      '/me': { get: { operationId: 'whoAmI', responses: ok } },
    },
  };
}

describe('scanner safety and completeness (docs/architecture.md §2.6)', () => {
  let target: Target | undefined;
  let dir: string;
  const hits = { reset: 0, delete: 0 };
  /** Whether the scan's identity is alice, who owns item i-1 (else the item is someone else's). */
  let scanned = true;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scanner-safety-'));
    hits.reset = 0;
    hits.delete = 0;
    scanned = true;
  });
  afterEach(async () => {
    await target?.close();
    target = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const startWipingTarget = async (): Promise<string> => {
    target = await startTarget((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/reset-db') {
        hits.reset += 1;
        return json(res, 200, { wiped: true });
      }
      if (req.method === 'DELETE') {
        hits.delete += 1;
        return json(res, 204, {});
      }
      if (path === '/me') return json(res, 200, { username: scanned ? 'alice' : 'nobody' });
      if (path === '/items') return json(res, 200, [{ id: 'i-1', owner: 'alice' }]);
      return json(res, 200, { id: 'i-1', owner: 'alice' });
    });
    const spec = join(dir, 'wipe.openapi.json');
    await writeFile(spec, JSON.stringify(wipingDescription()));
    return spec;
  };

  it('never sends GET /reset-db or a DELETE at defaults, and reports them skipped with the flag that would allow them', async () => {
    const spec = await startWipingTarget();
    const { report, ...result } = await scanToReport([
      'scan',
      'openapi',
      spec,
      '--base-url',
      target!.origin,
      '--rate',
      '2000/s',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect(hits).to.deep.equal({ reset: 0, delete: 0 });
    expect(reportProblems(report)).to.deep.equal([]);
    const destructive = report.reports.filter(
      (r) => r.operation?.id === 'GET /reset-db' || r.operation?.id === 'DELETE /items/{id}',
    );
    expect(destructive).to.not.have.length(0);
    // Other methods may probe the same URL (TRACE /items/i-1); nothing that deletes or names a wipe is ever sent.
    for (const item of destructive) {
      for (const scan of item.scans) {
        expect(scan.request?.method, `${item.id} on ${item.operation?.id}`).to.not.equal('DELETE');
        expect(scan.request?.url, `${item.id} on ${item.operation?.id}`).to.not.include('/reset-db');
      }
    }
    expect(destructive.filter((r) => r.status === 'skipped').map((r) => r.reason)).to.include(
      'destructive operation: not sent without --allow-destructive',
    );
  });

  it('sends them with --allow-destructive', async () => {
    const spec = await startWipingTarget();
    const result = await runCli([
      'scan',
      'openapi',
      spec,
      '--base-url',
      target!.origin,
      '--rate',
      '2000/s',
      '--no-progress',
      '--allow-destructive',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect(hits.reset).to.be.greaterThan(0);
    expect(hits.delete).to.be.greaterThan(0);
  });

  it("never deletes an object no scan identity owns, even with --allow-destructive: the description's example names someone else's", async () => {
    scanned = false;
    const spec = await startWipingTarget();
    const { report, ...result } = await scanToReport([
      'scan',
      'openapi',
      spec,
      '--base-url',
      target!.origin,
      '--rate',
      '2000/s',
      '--allow-destructive',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect(hits.reset, 'a wipe names no object: --allow-destructive sends it').to.be.greaterThan(0);
    expect(hits.delete).to.equal(0);
    const reasons = report.reports
      .filter((r) => r.operation?.id === 'DELETE /items/{id}' && r.status === 'skipped')
      .map((r) => r.reason);
    expect(reasons).to.include(
      'DELETE /items/{id}: {id}="i-1" names no object of a scan identity\'s (a description example or a generated value): writes go only to the scan identities\' own objects or those the scan created',
    );
  });

  it('narrows a scan with --include-operations and --exclude-operations (globs on METHOD /path and operationId; exclude wins)', async () => {
    const spec = await startWipingTarget();
    const { report, ...result } = await scanToReport([
      'scan',
      'openapi',
      spec,
      '--base-url',
      target!.origin,
      '--rate',
      '2000/s',
      '--allow-destructive',
      '--include-operations',
      'GET /items*',
      '--include-operations',
      'resetDatabase',
      '--exclude-operations',
      'reset*',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect([...new Set(report.reports.map((r) => r.operation?.id))].sort()).to.deep.equal([
      'GET /items',
      'GET /items/{id}',
    ]);
    expect(hits).to.deep.equal({ reset: 0, delete: 0 });
  });

  it('scan curl of a public endpoint with a token reports nothing above Info', async () => {
    const hardened = {
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'ratelimit-policy': '"d";q=100;w=60',
    };
    target = await startTarget((_req, res) => json(res, 200, { status: 'up' }, hardened));
    const { report, ...result } = await scanToReport([
      'scan',
      'curl',
      target.url('/status'),
      '-H',
      `Authorization: Bearer ${TOKEN}`,
      '--rate',
      '2000/s',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    const scores = report.reports.flatMap((r) =>
      r.issues.filter((i) => i.status === 'failed').map((i) => [r.id, i.cvss.score] as const),
    );
    expect(scores.filter(([, score]) => score > 0)).to.deep.equal([]);
  });

  it('runs the JWT checks on an endpoint that answers 401 to a valid non-admin token, comparing against that answer', async () => {
    // Valid tokens of non-admins get a 401 that says so; no token and garbage get another 401. alg none is accepted.
    const verify = acceptsAlgNone(SECRET);
    target = await startTarget(async (req, res) => {
      const token = bearerOf(req);
      if (!token) return json(res, 401, { error: 'no authorization token was found' });
      if (!(await Promise.resolve(verify(token)).catch(() => false))) return json(res, 401, { error: 'invalid token' });
      return json(res, 401, { error: 'admin role required for this resource' });
    });
    const { report, ...result } = await scanToReport([
      'scan',
      'curl',
      target.url('/admin/stats'),
      '-H',
      `Authorization: Bearer ${TOKEN}`,
      '--scans',
      'jwt.alg_none',
      '--rate',
      '2000/s',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    const algNone = report.reports.find((r) => r.id === 'jwt.alg_none')!;
    expect(algNone.status, algNone.reason).to.equal('failed');
    // The unsigned token the target accepted is a working credential: redacted from the evidence like the supplied one.
    const cited = algNone.scans.filter((s) =>
      algNone.issues[0].scans!.some((i) => i.id === s.id && i.status === 'failed'),
    );
    expect(cited).to.not.have.length(0);
    for (const scan of cited)
      expect(scan.request?.headers?.Authorization ?? scan.request?.headers?.authorization).to.equal(
        'Bearer [redacted]',
      );
    expect(JSON.stringify(report)).to.not.include(TOKEN);
    const baseline = report.reports.find((r) => r.id === 'auth.baseline')!;
    expect(baseline.data?.facts).to.deep.include({ credentialAccepted: false, notPermitted: true });
  });

  it('an empty token: a warning at the start, the incomplete advice line, a marked JSON report, exit 3 with --fail-on-incomplete', async () => {
    target = await startTarget((_req, res) => json(res, 400, { error: 'bad authorization header' }));
    const table = await runCli([
      'scan',
      'curl',
      target.url('/me'),
      '-H',
      'Authorization: Bearer ',
      '--rate',
      '2000/s',
      '--no-progress',
    ]);
    expect(table.code, table.stderr).to.equal(0);
    expect(table.stderr.split('\n')[0]).to.match(/^warning: the Authorization value is empty/);
    expect(table.stdout).to.not.include('Success: No issue detected!');
    expect(table.stdout).to.match(
      /^Warning: the scan is incomplete: \d+ checks could not run: the Authorization value is empty/m,
    );
    expect(table.stdout).to.include('SKIPPED CHECK');

    const { report, ...strict } = await scanToReport([
      'scan',
      'curl',
      target.url('/me'),
      '-H',
      'Authorization: Bearer ',
      '--rate',
      '2000/s',
      '--fail-on-incomplete',
    ]);
    expect(strict.code).to.equal(3);
    expect(strict.stderr).to.match(/Warning: the scan is incomplete/);
    expect(reportProblems(report)).to.deep.equal([]);
    expect(report.completeness?.complete).to.equal(false);
    expect(report.reports.find((r) => r.id === 'jwt.alg_none')).to.deep.include({
      status: 'skipped',
      incomplete: true,
    });
  });

  it('names flags, not option keys, in skip reasons', async () => {
    target = await startTarget((req, res) =>
      bearerOf(req) === TOKEN ? json(res, 200, { ok: true }) : json(res, 401, { error: 'unauthorized' }),
    );
    const result = await runCli([
      'scan',
      'curl',
      target.url('/me'),
      '-H',
      `Authorization: Bearer ${TOKEN}`,
      '--scans',
      'jwt.expired_accepted',
      '--rate',
      '2000/s',
      '--no-progress',
    ]);
    expect(result.stdout).to.include('--jwt-expired-token');
    expect(result.stdout).to.not.match(/\bexpiredToken\b/);
  });

  it('stops the checks that send the credential when the scan user is deleted after 20 requests, and says when', async () => {
    let served = 0;
    target = await startTarget((req, res) => {
      served += 1;
      const token = bearerOf(req);
      // The scan's own user disappears after the 20th request: its token is rejected from then on.
      if (token !== TOKEN || served > 20) return json(res, 401, { error: 'unauthorized' });
      return json(res, 200, { id: 'me' });
    });
    const { report, ...result } = await scanToReport([
      'scan',
      'curl',
      target.url('/me'),
      '-H',
      `Authorization: Bearer ${TOKEN}`,
      '--canary-every',
      '5',
      '--concurrency',
      '1',
      '--rate',
      '2000/s',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect(reportProblems(report)).to.deep.equal([]);
    const lost = report.completeness?.identityCanary?.lost;
    expect(lost, JSON.stringify(report.completeness)).to.not.equal(undefined);
    expect(lost!.status).to.equal(401);
    expect(lost!.afterRequests).to.be.greaterThan(20);
    expect(lost!.reason).to.match(/stopped working after \d+ requests/);
    expect(report.completeness?.complete).to.equal(false);
    const stopped = report.reports.filter((r) => r.status === 'skipped' && /identity canary/.test(r.reason ?? ''));
    expect(stopped).to.not.have.length(0);
    expect(served, 'requests after the loss stay few').to.be.lessThan(60);
  });
});
