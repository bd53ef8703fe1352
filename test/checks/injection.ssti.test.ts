import { expect } from 'chai';
import { renderTemplate } from '../../demo/vulnerable-api/mini-template.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'injection.ssti';
const card = JSON.stringify({ recipient: 'Bob', message: 'Happy birthday, {{recipient}}!' });
const messageOf = (body: string): string => (JSON.parse(body) as { message?: string }).message ?? '';

describe('injection.ssti', () => {
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  const scanCard = (url: string, token?: string) =>
    scanTarget(url, {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? bearer(token) : {}) },
      body: card,
    });

  it('fails with injection.ssti (9.3) on the demo’s card preview, naming the syntax and telling Jinja2 apart', async () => {
    demo = await startDemoTarget();
    const outcome = await scanCard(demo.url('/api/cards/preview'), demo.tokens.alice);
    // baseline, recipient's polyglot (only a variable), message's polyglot, {{7*191}}, {{7*193}}, 7*193, {{7*'7'}}
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.ssti': 9.3 }, requests: 7 });
    expect(resultOf(outcome, ID).findings[0].detail).to.equal(
      "body message: the template syntax {{ }} is evaluated (Jinja2 (7*'7' renders 7777777)): {{7*191}} rendered 1337 and {{7*193}} rendered 1351, their literals absent; 7*193 without delimiters stayed as sent",
    );
  });

  it('passes the demo’s secure twin with one request per input: the expressions stay as written', async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanCard(demo.url('/api/cards/preview'), demo.tokens.alice);
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('finds an engine that fails on the other syntaxes of the polyglot, by trying each alone', async () => {
    target = await startTarget((_req, res, body) => {
      const message = messageOf(body);
      // ERB-like: only <%= a*b %> is an expression, and a stray `{{` is a syntax error.
      if (message.includes('{{') && !message.includes('{{recipient}}'))
        return json(res, 500, { error: 'syntax error' });
      json(res, 200, {
        preview: message.replace(/<%=\s*(\d+)\*(\d+)\s*%>/g, (_m, a: string, b: string) =>
          String(Number(a) * Number(b)),
        ),
      });
    });
    const outcome = await scanCard(target.url('/cards'));
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.ssti': 9.3 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /^body message: the template syntax <%= %> is evaluated \(ERB, EJS\)/,
    );
  });

  it('passes a calculator: arithmetic computed without any template is not template injection', async () => {
    target = await startTarget((_req, res, body) => {
      const message = messageOf(body);
      json(res, 200, {
        result: message.replace(/(\d+)\*(\d+)/g, (_m, a: string, b: string) => String(Number(a) * Number(b))),
      });
    });
    const outcome = await scanCard(target.url('/calc'));
    expectResult(outcome, ID, { status: 'passed' });
  });

  it('passes an answer that shows the result beside the literal (a calculator echoing its input)', async () => {
    target = await startTarget((_req, res, body) => {
      const message = messageOf(body);
      json(res, 200, { message, rendered: renderTemplate(message.replace(/\{\{recipient\}\}/g, 'Bob'), {}) });
    });
    const outcome = await scanCard(target.url('/cards'));
    expectResult(outcome, ID, { status: 'passed' });
  });
});
