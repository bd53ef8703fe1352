import { expect } from 'chai';
import { defineCheck, type CheckDefinition } from '../../../../scanner/api.js';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded } from '../support/engine-fixture.js';

/** What a login answers, and what an over-sharing user list shows of the same account. */
const PASSWORD = 'hunter2 "quoted" & more';
const TOKEN = 'tok_9f8e7d6c5b4a39281706';

const check = (id: string, extra: Partial<CheckDefinition>): CheckDefinition =>
  defineCheck({
    id,
    name: id,
    issues: [{ id, name: id, cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N', score: 5 } }],
    async run() {},
    ...extra,
  });

describe('ctx.redact: values a check discovered never reach the report', () => {
  let target: Target;
  before(
    async () =>
      (target = await startTarget((req, res) => {
        if (req.url === '/users') return json(res, 200, [{ name: 'test', password: PASSWORD }]);
        json(res, 200, { token: TOKEN, echo: req.url });
      })),
  );
  after(() => target.close());

  it('redacts them from every result: the discovering check, a passive one citing it, and an earlier answer elsewhere', async () => {
    const users = check('t.users', {
      async run(ctx) {
        // Runs first (ties by id), before anything is discovered: its answer holds the password.
        const answer = await ctx.http.send();
        ctx.report('t.users', { detail: `the list shows ${answer.body}`, attempt: answer });
      },
    });
    const login = check('t.login', {
      async run(ctx) {
        const answer = await ctx.http.send({ url: `/login?password=${encodeURIComponent(PASSWORD)}` });
        const token = (JSON.parse(answer.body) as { token: string }).token;
        ctx.redact(PASSWORD);
        ctx.redact(token);
        ctx.setFact('session', { token, password: PASSWORD });
        ctx.report('t.login', { detail: `signed in with ${PASSWORD}, got ${token}`, attempt: answer });
      },
    });
    const passive = check('t.passive', {
      passive: true,
      async run(ctx) {
        for (const seen of ctx.observed())
          if (seen.response.body.includes(TOKEN))
            ctx.report('t.passive', { detail: `a token in the answer: ${seen.response.body}`, attempt: seen.response });
      },
    });
    const skipper = check('t.skipper', {
      async run(ctx) {
        ctx.skip(`nothing to do after ${TOKEN}`);
      },
    });
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/login')), curlOperation(target.url('/users'))],
      checks: [login, passive, skipper, users].map(loaded),
    });
    const written = JSON.stringify(outcome.results);
    for (const form of [PASSWORD, JSON.stringify(PASSWORD).slice(1, -1), encodeURIComponent(PASSWORD), TOKEN])
      expect(written, form).to.not.include(form);
    expect(written).to.include('[redacted]');
    const result = (id: string, path: string) =>
      outcome.results.find((r) => r.checkId === id && r.operationId === `GET ${path}`)!;
    expect(result('t.login', '/login').findings[0].detail).to.equal('signed in with [redacted], got [redacted]');
    expect(result('t.login', '/login').data).to.deep.equal({
      session: { token: '[redacted]', password: '[redacted]' },
    });
    expect(result('t.passive', '/login').status).to.equal('failed');
    expect(result('t.skipper', '/login').reason).to.equal('nothing to do after [redacted]');
    expect(result('t.users', '/users').attempts[0].response!.body).to.include('"password":"[redacted]"');
  });

  it('refuses a value too short to redact, without quoting it', async () => {
    const outcome = await runScan({
      kind: 'curl',
      operations: [curlOperation(target.url('/login'))],
      checks: [
        loaded(
          check('t.short', {
            async run(ctx) {
              ctx.redact('abc');
            },
          }),
        ),
      ],
    });
    expect(lines(outcome.results)).to.deep.equal([
      't.short GET /login errored: t.short: ctx.redact takes a string of 4 characters or more (shorter values would redact innocent text; keep them out of the evidence) (incomplete)',
    ]);
  });
});
