import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineCheck, type CheckDefinition } from '../../../scanner/api.js';
import { curlFlagsFrom } from '../../../scanner/curl-args.js';
import { operationFromCurl } from '../../../scanner/curl-operation.js';
import { runScan } from '../../../scanner/engine.js';
import type { ScannedCheck } from '../../../scanner/scan-result.js';

const loaded = (definition: CheckDefinition): ScannedCheck => ({
  definition,
  file: `${definition.id}.ts`,
  origin: 'custom',
});
const probe = (id: string, extra: Partial<CheckDefinition> = {}): CheckDefinition =>
  defineCheck({ id, name: id, issues: [], maxCvss: 0, async run() {}, ...extra });

describe('scanner engine (runScan)', () => {
  let server: http.Server;
  let url: string;
  let inFlight = 0;
  let maxInFlight = 0;
  const seen: http.IncomingHttpHeaders[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(req.headers.authorization === 'Bearer good' ? 200 : 401, { server: 'fixture/1.0' }).end('ok');
      }, 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/items`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
    maxInFlight = 0;
  });

  const operation = () =>
    operationFromCurl(url, curlFlagsFrom({ header: ['Authorization: Bearer good', 'X-Trace: a', 'X-Trace: b'] }));

  it('runs a dependent after its dependency and lets it read the dependency facts', async () => {
    const base = probe('t.base', {
      async run(ctx) {
        ctx.setFact('status', (await ctx.http.send()).status);
      },
    });
    const dependent = defineCheck({
      id: 't.dependent',
      name: 'Dependent',
      issues: [{ id: 't.issue', name: 'Issue', cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N', score: 5 } }],
      maxCvss: 5,
      dependsOn: ['t.base'],
      async run(ctx) {
        if (ctx.fact<number>('t.base', 'status') === 200) ctx.report('t.issue', { detail: 'baseline accepted' });
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [operation()],
      checks: [loaded(dependent), loaded(base)],
    });
    expect(outcome.results.map((r) => [r.checkId, r.status])).to.deep.equal([
      ['t.base', 'passed'],
      ['t.dependent', 'failed'],
    ]);
    expect(outcome.results[1].findings).to.deep.equal([{ issueId: 't.issue', detail: 'baseline accepted' }]);
    expect(outcome.results[0].data).to.deep.equal({ status: 200 });
    expect(outcome.requestsSent).to.equal(1);
  });

  it('keeps every value of a repeated header and sends the credential unless a probe drops it', async () => {
    const check = probe('t.cred', {
      async run(ctx) {
        await ctx.http.send();
        await ctx.http.send({ credential: null });
        await ctx.http.send({ credential: 'forged' });
      },
    });
    const outcome = await runScan({ kind: 'curl', operations: [operation()], checks: [loaded(check)] });
    expect(seen.map((h) => h.authorization)).to.deep.equal(['Bearer good', undefined, 'Bearer forged']);
    expect(seen[0]['x-trace']).to.equal('a, b');
    expect(outcome.results[0].attempts.map((a) => a.response?.status)).to.deep.equal([200, 401, 401]);
    expect(outcome.results[0].attempts[0].request.headers.Authorization).to.equal('Bearer [redacted]');
  });

  it('shows published facts as report data, with the scan credential redacted', async () => {
    const check = probe('t.facts', {
      async run(ctx) {
        ctx.setFact('sent', `Bearer ${ctx.operation.credential!.value}`);
        ctx.setFact('count', 2);
      },
    });
    const outcome = await runScan({ kind: 'curl', operations: [operation()], checks: [loaded(check)] });
    expect(outcome.results[0].data).to.deep.equal({ sent: 'Bearer [redacted]', count: 2 });
  });

  it('redacts the values of options declared secret in requests, data and reasons, not only the scan credential', async () => {
    const other = 'Bearer other-identity-token-123';
    const check = defineCheck({
      id: 't.other',
      name: 't.other',
      issues: [],
      maxCvss: 0,
      options: [
        { name: 'asOther', type: 'header', flag: '--as-other', doc: 'second identity', secret: true },
        { name: 'expiredToken', type: 'string', flag: '--jwt-expired-token', doc: 'expired token', secret: true },
        { name: 'label', type: 'string', flag: '--label', doc: 'not a secret' },
      ],
      async run(ctx) {
        await ctx.http.send({ headers: { authorization: ctx.options.asOther!.value } });
        ctx.setFact('used', `${other} and ${String(ctx.options.expiredToken)} as ${String(ctx.options.label)}`);
        ctx.skip(`gave up on ${String(ctx.options.expiredToken)}`);
      },
    });
    const options = {
      asOther: { name: 'Authorization', value: other },
      expiredToken: 'expired-token-456',
      label: 'plain-label',
    };
    const outcome = await runScan({ kind: 'curl', operations: [operation()], checks: [loaded(check)], options });
    const written = JSON.stringify(outcome.results[0]);
    expect(written).to.not.include('other-identity-token-123');
    expect(written).to.not.include('expired-token-456');
    expect(outcome.results[0].reason).to.equal('gave up on [redacted]');
    expect(seen.at(-1)!.authorization).to.equal(other);
  });

  it('hands a check only the options it declared, with its defaults, and errors when it reads another', async () => {
    const declared = defineCheck({
      id: 't.declared',
      name: 't.declared',
      issues: [],
      maxCvss: 0,
      options: [
        { name: 'burst', type: 'integer', flag: '--burst', doc: 'burst', default: 50 },
        { name: 'given', type: 'string', flag: '--given', doc: 'given' },
      ],
      async run(ctx) {
        ctx.setFact('seen', { ...ctx.options });
      },
    });
    const nosy = probe('t.nosy_options', {
      async run(ctx) {
        ctx.setFact('stolen', ctx.options.given);
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [operation()],
      checks: [loaded(declared), loaded(nosy)],
      options: { given: 'x', other: 'y' },
    });
    expect(outcome.results.map((r) => [r.checkId, r.status, r.data ?? r.reason])).to.deep.equal([
      ['t.declared', 'passed', { seen: { burst: 50, given: 'x' } }],
      [
        't.nosy_options',
        'errored',
        't.nosy_options: reads option "given", which is not in its options (declare it in defineCheck({ options }))',
      ],
    ]);
  });

  it('skips a check whose dependency did not pass, with the dependency and its reason', async () => {
    const base = probe('t.base', { appliesTo: () => 'endpoint is public' });
    const dependent = probe('t.dependent', { dependsOn: ['t.base'] });
    const outcome = await runScan({
      kind: 'curl',
      operations: [operation()],
      checks: [loaded(base), loaded(dependent)],
    });
    expect(outcome.results.map((r) => [r.status, r.reason])).to.deep.equal([
      ['skipped', 'endpoint is public'],
      ['skipped', 'dependency t.base skipped: endpoint is public'],
    ]);
  });

  it('marks a check that throws, times out or reads an undeclared fact as errored, never passed or failed', async () => {
    const throws = probe('t.throws', {
      async run() {
        throw new Error('boom');
      },
    });
    const hangs = probe('t.hangs', { timeoutMs: 50, run: () => new Promise(() => {}) });
    const nosy = probe('t.nosy', {
      async run(ctx) {
        ctx.fact('t.throws', 'anything');
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [operation()],
      checks: [throws, hangs, nosy].map(loaded),
    });
    expect(outcome.results.map((r) => [r.checkId, r.status, r.reason])).to.deep.equal([
      ['t.hangs', 'errored', 'timed out after 50 ms'],
      ['t.nosy', 'errored', 't.nosy: reads a fact of "t.throws", which is not in its dependsOn'],
      ['t.throws', 'errored', 'boom'],
    ]);
  });

  it('records ctx.skip as skipped with its reason', async () => {
    const check = probe('t.skips', {
      async run(ctx) {
        ctx.skip('no cookies in the response');
      },
    });
    const outcome = await runScan({ kind: 'curl', operations: [operation()], checks: [loaded(check)] });
    expect(outcome.results[0]).to.include({ status: 'skipped', reason: 'no cookies in the response' });
  });

  it('never has more checks in flight than --concurrency', async () => {
    const checks = ['t.a', 't.b', 't.c', 't.d'].map((id) =>
      // Probes with a header of their own: a check's first as-given request would reuse the shared baseline answer.
      loaded(
        probe(id, {
          async run(ctx) {
            await ctx.http.send({ headers: { 'X-Probe': id } });
            await ctx.http.send({ headers: { 'X-Probe': id } });
          },
        }),
      ),
    );
    const outcome = await runScan({
      kind: 'curl',
      operations: [operation()],
      checks,
      concurrency: 1,
      rate: { count: 1000, perMs: 1000 },
    });
    expect(outcome.requestsSent).to.equal(8);
    expect(maxInFlight).to.equal(1);
  });

  it('leaves out checks that do not run in this kind of scan', async () => {
    const discoverOnly = probe('t.discover', { scanKinds: ['discover'] });
    const outcome = await runScan({
      kind: 'curl',
      operations: [operation()],
      checks: [loaded(discoverOnly), loaded(probe('t.curl'))],
    });
    expect(outcome.results.map((r) => r.checkId)).to.deep.equal(['t.curl']);
  });

  it('errors a check whose request hangs past the per-request timeout instead of stalling the scan', async () => {
    const hanging = http.createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
      const check = probe('t.hang', {
        async run(ctx) {
          await ctx.http.send();
        },
      });
      const outcome = await runScan({
        kind: 'curl',
        operations: [operationFromCurl(target, curlFlagsFrom({}))],
        checks: [loaded(check)],
        requestTimeoutMs: 100,
      });
      expect(outcome.results[0].status).to.equal('errored');
      expect(outcome.results[0].reason).to.match(
        /^GET http:\/\/127\.0\.0\.1:\d+\/: Timeout awaiting 'request' for 100ms$/,
      );
      expect(outcome.results[0].attempts[0].error).to.equal(outcome.results[0].reason);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('skips the checks that had not started when the scan is interrupted', async () => {
    const controller = new AbortController();
    const first = probe('t.first', {
      async run() {
        controller.abort(new Error('interrupted'));
      },
    });
    const later = probe('t.later', {
      async run(ctx) {
        await ctx.http.send();
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [operation()],
      checks: [loaded(first), loaded(later)],
      concurrency: 1,
      signal: controller.signal,
    });
    expect(outcome.results.map((r) => [r.checkId, r.status, r.reason])).to.deep.equal([
      ['t.first', 'passed', undefined],
      ['t.later', 'skipped', 'the scan was interrupted before this check ran'],
    ]);
    expect(outcome.requestsSent).to.equal(0);
  });

  it('refuses checks whose dependency is not among them', async () => {
    const orphan = probe('t.orphan', { dependsOn: ['t.missing'] });
    let message = '';
    await runScan({ kind: 'curl', operations: [operation()], checks: [loaded(orphan)] }).catch(
      (e: Error) => (message = e.message),
    );
    expect(message).to.equal('t.orphan.ts: depends on "t.missing", which does not exist');
  });
});
