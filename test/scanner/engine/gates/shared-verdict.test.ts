import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCheck, type CheckDefinition, type Operation } from '../../../../scanner/api.js';
import { runScan } from '../../../../scanner/engine.js';
import type { ScannedCheck } from '../../../../scanner/scan-result.js';
import type { Report } from '../../../../scanner/report/report-types.js';
import { reportProblems } from '../../../../scanner/report/validate-report.js';
import { operation } from '../../../checks/support/object-test-operation.js';
import { scanToReport } from '../../support/run-cli.js';

const loaded = (definition: CheckDefinition): ScannedCheck => ({
  definition,
  file: `${definition.id}.ts`,
  origin: 'custom',
});

/** A check about what each path's first segment shares: fails where the answer says `weak`. */
const perMount = defineCheck({
  id: 't.mount',
  name: 'Mount',
  issues: [{ id: 't.weak', name: 'Weak', cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N', score: 5 } }],
  maxCvss: 5,
  sharedVerdict: { subject: 'mount', key: (operation) => operation.path.split('/')[1] },
  async run(ctx) {
    const response = await ctx.http.send({ method: 'GET' });
    if (response.body === 'weak') ctx.report('t.weak', { detail: ctx.operation.id, attempt: response });
  },
});

describe('shared verdicts (a check judged once for what operations share)', () => {
  let server: http.Server;
  let origin: string;
  const received: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.writeHead(200).end(req.url?.startsWith('/legacy/') ? 'weak' : 'ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (received.length = 0));

  const op = (method: string, path: string): Operation =>
    operation({ id: `${method} ${path}`, method, url: `${origin}${path}`, path });
  // Write operations first in scan order: the representative is still the first read operation.
  const operations = (): Operation[] => [
    op('POST', '/v2/items'),
    op('GET', '/v2/items'),
    op('GET', '/v2/items/1'),
    op('POST', '/legacy/items'),
    op('GET', '/legacy/items'),
    op('GET', '/legacy/items/1'),
  ];
  const verdicts = (results: Awaited<ReturnType<typeof runScan>>['results']) =>
    results.map((r) => `${r.operationId} ${r.status} ${r.coveredBy ?? '-'} ${r.attempts.length}`);

  it('runs on the first read operation of each key; the others pass as covered by it, sending nothing', async () => {
    const outcome = await runScan({ kind: 'openapi', operations: operations(), checks: [loaded(perMount)] });
    expect(verdicts(outcome.results)).to.deep.equal([
      'POST /v2/items passed GET /v2/items 0',
      'GET /v2/items passed - 1',
      'GET /v2/items/1 passed GET /v2/items 0',
      'POST /legacy/items failed - 1',
      'GET /legacy/items failed - 1',
      'GET /legacy/items/1 failed - 1',
    ]);
    const covered = outcome.results.find((r) => r.operationId === 'GET /v2/items/1')!;
    expect(covered.reason).to.equal(
      'covered by GET /v2/items: same mount, which passed this check there (--per-operation sends it here too)',
    );
    expect(received.filter((line) => line.includes('/v2/'))).to.deep.equal(['GET /v2/items']);
  });

  it('confirms a failed verdict on every other operation of the key, each with its own evidence', async () => {
    const outcome = await runScan({ kind: 'openapi', operations: operations(), checks: [loaded(perMount)] });
    const legacy = outcome.results.filter((r) => r.operationId.includes('/legacy/'));
    expect(legacy.map((r) => r.findings.map((f) => f.detail))).to.deep.equal([
      ['POST /legacy/items'],
      ['GET /legacy/items'],
      ['GET /legacy/items/1'],
    ]);
    for (const result of legacy) expect(result.findings[0].attemptId).to.equal(result.attempts[0].id);
  });

  it('judges every operation itself with --per-operation, and one whose key is undefined always', async () => {
    const all = await runScan({
      kind: 'openapi',
      operations: operations(),
      checks: [loaded(perMount)],
      perOperation: true,
    });
    expect(all.results.every((r) => r.coveredBy === undefined && r.attempts.length === 1)).to.equal(true);
    const keyless = defineCheck({ ...perMount, sharedVerdict: { subject: 'nothing', key: () => undefined } });
    const alone = await runScan({ kind: 'openapi', operations: operations(), checks: [loaded(keyless)] });
    expect(alone.requestsSent).to.equal(operations().length);
  });

  it('never covers an operation the send gate refuses (destructive): it is skipped with that reason', async () => {
    const destructive = [op('GET', '/v2/items'), op('DELETE', '/v2/items/1')];
    const check = defineCheck({
      ...perMount,
      async run(ctx) {
        await ctx.http.send();
      },
    });
    const outcome = await runScan({ kind: 'openapi', operations: destructive, checks: [loaded(check)] });
    expect(outcome.results.map((r) => [r.operationId, r.status, r.coveredBy])).to.deep.equal([
      ['GET /v2/items', 'passed', undefined],
      ['DELETE /v2/items/1', 'skipped', undefined],
    ]);
    expect(received).to.deep.equal(['GET /v2/items']);
  });
});

describe('scanner scan openapi: JWT forgeries once per token verifier', () => {
  const secret = 'a-strong-secret-the-scanner-cannot-guess-0123456789';
  const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'user-1', exp: now + 3600 })}`;
  const token = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  const algOf = (value: string): string =>
    String((JSON.parse(Buffer.from(value.split('.')[0], 'base64url').toString()) as { alg?: unknown }).alg);
  let server: http.Server;
  let base: string;
  let dir: string;
  const forged: string[] = [];

  before(async () => {
    // /legacy accepts unsigned tokens (a sub-API with its own verifier); /v2 verifies HS256 correctly.
    server = http.createServer((req, res) => {
      const value = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const parts = value.split('.');
      const signed =
        parts.length === 3 && createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest('base64url');
      let ok = parts.length === 3 && parts[2] === signed;
      try {
        if (req.url?.startsWith('/api/legacy/') && parts.length === 3 && algOf(value).toLowerCase() === 'none')
          ok = true;
      } catch {
        ok = false;
      }
      // Forged tokens only (JWT-shaped): auth.baseline's garbage credential is not one.
      if (parts.length === 3 && value !== token) forged.push(`${req.method} ${req.url}`);
      const headers = { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' };
      res.writeHead(ok ? 200 : 401, headers).end(ok ? '{"items":[]}' : '{"error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    dir = await mkdtemp(join(tmpdir(), 'shared-verdict-'));
    const get = (id: string) => ({ get: { operationId: id, responses: { '200': { description: 'ok' } } } });
    await writeFile(
      join(dir, 'api.json'),
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'two verifiers', version: '1' },
        security: [{ bearer: [] }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        paths: {
          '/v2/orders': get('orders'),
          '/v2/orders/open': get('openOrders'),
          '/v2/orders/closed': get('closedOrders'),
          '/legacy/orders': get('legacyOrders'),
          '/legacy/invoices': get('legacyInvoices'),
        },
      }),
    );
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => (forged.length = 0));

  const scan = async (...flags: string[]): Promise<Report> => {
    const { report, ...result } = await scanToReport([
      'scan',
      'openapi',
      join(dir, 'api.json'),
      '--base-url',
      base,
      '--security-schemes',
      `bearer=${token}`,
      '--scans',
      'jwt.*',
      '--rate',
      '2000/s',
      ...flags,
    ]);
    expect(result.code, result.stderr).to.equal(0);
    return report;
  };
  const rows = (report: Report, check: string): string[] =>
    report.reports
      .filter((item) => item.id === check)
      .map((item) => `${item.operation?.id} ${item.status} ${item.coveredBy ?? '-'}`);

  it('finds alg none on every legacy operation, and covers the sound verifier’s other operations by its first one', async () => {
    const report = await scan();
    expect(reportProblems(report)).to.deep.equal([]);
    expect(rows(report, 'jwt.alg_none')).to.deep.equal([
      'GET /v2/orders passed -',
      'GET /v2/orders/open passed GET /v2/orders',
      'GET /v2/orders/closed passed GET /v2/orders',
      'GET /legacy/orders failed -',
      'GET /legacy/invoices failed -',
    ]);
    const covered = report.reports.find((i) => i.id === 'jwt.alg_none' && i.operation?.id === 'GET /v2/orders/closed')!;
    expect(covered.scans).to.deep.equal([]);
    expect(covered.reason).to.match(/^covered by GET \/v2\/orders: same token verifier/);
    // Forgeries reach one /v2 operation only; both legacy operations get their own.
    expect(forged.some((line) => line.startsWith('GET /api/v2/orders'))).to.equal(true);
    expect(forged.filter((line) => /\/v2\/orders\/(open|closed)/.test(line))).to.deep.equal([]);
    expect(forged.some((line) => line.startsWith('GET /api/legacy/invoices'))).to.equal(true);
  });

  it('--per-operation sends the forgeries to every operation, with the same findings', async () => {
    const report = await scan('--per-operation');
    expect(report.options.perOperation).to.equal(true);
    expect(rows(report, 'jwt.alg_none')).to.deep.equal([
      'GET /v2/orders passed -',
      'GET /v2/orders/open passed -',
      'GET /v2/orders/closed passed -',
      'GET /legacy/orders failed -',
      'GET /legacy/invoices failed -',
    ]);
    expect(forged.filter((line) => /\/v2\/orders\/(open|closed)/.test(line))).to.not.deep.equal([]);
  });
});
