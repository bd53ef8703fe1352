import { expect } from 'chai';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

describe('gate dependsOn', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  const operations = () => [curlOperation(target.url('/a')), curlOperation(target.url('/b'))];

  it('runs a check after its dependency passed on the same operation, and reads the facts it published there', async () => {
    const base = probe('t.base', {
      async run(ctx) {
        ctx.setFact('path', new URL(ctx.operation.url).pathname);
      },
    });
    const dependent = probe('t.dependent', {
      dependsOn: ['t.base'],
      async run(ctx) {
        ctx.setFact('seen', ctx.fact('t.base', 'path'));
      },
    });
    const outcome = await runScan({ kind: 'curl', operations: operations(), checks: [dependent, base].map(loaded) });
    expect(outcome.results.map((r) => [r.checkId, r.operationId, r.status, r.data])).to.deep.equal([
      ['t.base', 'GET /a', 'passed', { path: '/a' }],
      ['t.base', 'GET /b', 'passed', { path: '/b' }],
      ['t.dependent', 'GET /a', 'passed', { seen: '/a' }],
      ['t.dependent', 'GET /b', 'passed', { seen: '/b' }],
    ]);
  });

  it('skips a check whose dependency did not pass there, with the dependency, its status and its reason', async () => {
    const base = probe('t.base', { appliesTo: (op) => (op.url.endsWith('/b') ? 'not on b' : true) });
    const dependent = probe('t.dependent', { dependsOn: ['t.base'] });
    const outcome = await runScan({ kind: 'curl', operations: operations(), checks: [base, dependent].map(loaded) });
    expect(lines(outcome.results)).to.deep.equal([
      't.base GET /a passed',
      't.base GET /b skipped: not on b',
      't.dependent GET /a passed',
      't.dependent GET /b skipped: dependency t.base skipped: not on b',
    ]);
  });

  it('marks the skip incomplete when the dependency errored', async () => {
    const base = probe('t.base', {
      async run() {
        throw new Error('boom');
      },
    });
    const dependent = probe('t.dependent', { dependsOn: ['t.base'] });
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/a'))],
      checks: [base, dependent].map(loaded),
    });
    expect(lines(outcome.results)).to.deep.equal([
      't.base GET /a errored: boom (incomplete)',
      't.dependent GET /a skipped: dependency t.base errored: boom (incomplete)',
    ]);
  });

  it('reads a once-per-scan dependency on the first operation, for every operation', async () => {
    const once = probe('t.once', {
      oncePerScan: true,
      async run(ctx) {
        ctx.setFact('ranOn', ctx.operation.id);
      },
    });
    const dependent = probe('t.dependent', {
      dependsOn: ['t.once'],
      async run(ctx) {
        ctx.setFact('seen', ctx.fact('t.once', 'ranOn'));
      },
    });
    const outcome = await runScan({ kind: 'curl', operations: operations(), checks: [once, dependent].map(loaded) });
    expect(outcome.results.map((r) => [r.checkId, r.operationId, r.data])).to.deep.equal([
      ['t.once', 'GET /a', { ranOn: 'GET /a' }],
      ['t.dependent', 'GET /a', { seen: 'GET /a' }],
      ['t.dependent', 'GET /b', { seen: 'GET /a' }],
    ]);
  });
});
