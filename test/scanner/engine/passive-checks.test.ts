import { expect } from 'chai';
import { defineCheck, type CheckDefinition, type ObservedExchange } from '../../../scanner/api.js';
import { curlFlagsFrom } from '../../../scanner/curl-args.js';
import { operationFromCurl } from '../../../scanner/curl-operation.js';
import { runScan } from '../../../scanner/engine.js';
import type { ScannedCheck } from '../../../scanner/scan-result.js';
import { json, startTarget, type Target } from '../../fixtures/targets/start-target.js';

const loaded = (definition: CheckDefinition): ScannedCheck => ({
  definition,
  file: `${definition.id}.ts`,
  origin: 'custom',
});
const sender = (id: string, paths: string[]): CheckDefinition =>
  defineCheck({
    id,
    name: id,
    issues: [],
    maxCvss: 0,
    async run(ctx) {
      for (const path of paths) await ctx.http.send({ url: path });
    },
  });

describe('passive checks (passive: true, ctx.observed())', () => {
  let target: Target;
  before(async () => {
    target = await startTarget(async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, req.url === '/slow' ? 50 : 1));
      json(res, 200, { path: req.url });
    });
  });
  after(() => target.close());

  const scan = (checks: CheckDefinition[]) =>
    runScan({
      kind: 'curl',
      operations: [
        operationFromCurl(target.url('/items'), curlFlagsFrom({ header: ['Authorization: Bearer s3cret'] })),
      ],
      checks: checks.map(loaded),
      rate: { count: 1000, perMs: 1000 },
    });

  it('run after every other check of the operation and see each exchange, credentials redacted, sending nothing', async () => {
    let seen: readonly ObservedExchange[] = [];
    const watcher = defineCheck({
      id: 'a.watcher',
      name: 'watcher',
      issues: [
        {
          id: 'a.seen',
          name: 'seen',
          cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
        },
      ],
      maxCvss: 0,
      passive: true,
      async run(ctx) {
        seen = ctx.observed();
        const slow = seen.find((e) => e.request.url.endsWith('/slow'))!;
        ctx.report('a.seen', { detail: 'the slow one', attempt: slow.response });
      },
    });
    const before = target.requests();
    const outcome = await scan([watcher, sender('z.fast', ['/fast']), sender('z.slow', ['/slow', '/slow'])]);
    expect(target.requests() - before, 'only the two active checks sent requests').to.equal(3);
    expect(seen.map((e) => `${e.checkId} ${new URL(e.request.url).pathname}`).sort()).to.deep.equal([
      'z.fast /fast',
      'z.slow /slow',
      'z.slow /slow',
    ]);
    expect(seen[0].request.headers.Authorization).to.equal('Bearer [redacted]');
    const result = outcome.results.find((r) => r.checkId === 'a.watcher')!;
    expect(result.status).to.equal('failed');
    expect(
      result.attempts.map((a) => new URL(a.request.url).pathname),
      'the cited exchange, copied as evidence',
    ).to.deep.equal(['/slow']);
    const original = outcome.results.find((r) => r.checkId === 'z.slow')!.attempts.map((a) => a.id);
    expect(original).to.include(result.findings[0].attemptId);
  });

  it('cannot send: a passive check that calls ctx.http.send errors', async () => {
    const cheat = defineCheck({
      id: 'a.cheat',
      name: 'cheat',
      issues: [],
      maxCvss: 0,
      passive: true,
      run: async (ctx) => void (await ctx.http.send()),
    });
    const outcome = await scan([cheat]);
    expect(outcome.results[0].status).to.equal('errored');
    expect(outcome.results[0].reason).to.match(/passive check sends nothing/);
  });

  it('is the only kind of check that may read ctx.observed()', async () => {
    const nosy = defineCheck({
      id: 'a.nosy',
      name: 'nosy',
      issues: [],
      maxCvss: 0,
      run: async (ctx) => void ctx.observed(),
    });
    const outcome = await scan([nosy]);
    expect(outcome.results[0].reason).to.match(/only passive checks read ctx.observed/);
  });

  it('cites several request/response pairs for one finding', async () => {
    const differential = defineCheck({
      id: 'a.diff',
      name: 'diff',
      issues: [
        {
          id: 'a.diff_found',
          name: 'found',
          cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
        },
      ],
      maxCvss: 0,
      async run(ctx) {
        const [a, b, c] = [
          await ctx.http.send({ url: '/a' }),
          await ctx.http.send({ url: '/b' }),
          await ctx.http.send({ url: '/c' }),
        ];
        ctx.report('a.diff_found', { attempt: c, attempts: [a, b, c] });
      },
    });
    const result = (await scan([differential])).results[0];
    const [a, b, c] = result.attempts.map((x) => x.id);
    expect(result.findings).to.deep.equal([{ issueId: 'a.diff_found', attemptId: c, attemptIds: [a, b] }]);
  });
});
