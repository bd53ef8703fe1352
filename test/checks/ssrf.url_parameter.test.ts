import { expect } from 'chai';
import { startSsrfTarget } from '../fixtures/targets/ssrf-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { expectResult } from './expect-result.js';
import { scanGraphqlDemo, startGraphqlDemo } from '../fixtures/targets/graphql-demo-target.js';
import { findingsOf } from './graphql-demo-result.js';

const ID = 'ssrf.url_parameter';
const ISSUE = 'server_side_request_forgery.url_parameter';
const json = { 'Content-Type': 'application/json' };

describe('ssrf.url_parameter', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with server_side_request_forgery.url_parameter (7.7) when a webhook registration fetches the URL, naming the input', async () => {
    target = await startSsrfTarget({ fetches: true });
    const outcome = await scanTarget(target.url('/webhooks'), {
      checks: [ID],
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'ci', url: 'https://example.com/hook' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.7 }, requests: 1 });
    const result = resultOf(outcome, ID);
    expect(result.findings[0].detail)
      .to.match(/body-url/)
      .and.match(/GET \/gatehouse-[0-9a-f]{16}\/body-url/);
    expect(result.attempts[0].request.body).to.match(/"url":"http:\/\/127\.0\.0\.1:\d+\/gatehouse-/);
  });

  it('fails on a query parameter named url that a preview fetches', async () => {
    target = await startSsrfTarget({ fetches: true });
    const outcome = await scanTarget(target.url('/preview?url=https%3A%2F%2Fexample.com%2F'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.7 }, requests: 1 });
  });

  it('passes with one request when the URL is only stored', async () => {
    target = await startSsrfTarget({ fetches: false });
    const outcome = await scanTarget(target.url('/webhooks'), {
      checks: [ID],
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'ci', url: 'https://example.com/hook' }),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });

  it('is not applicable to an operation without URL-shaped inputs', async () => {
    target = await startSsrfTarget({ fetches: true });
    const outcome = await scanTarget(target.url('/webhooks'), {
      checks: [ID],
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'ci' }),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /no URL-shaped input/, requests: 0 });
  });

  it('never sends a destructive operation', async () => {
    target = await startSsrfTarget({ fetches: true });
    const outcome = await scanTarget(target.url('/webhooks/purge?url=https%3A%2F%2Fexample.com%2F'), {
      checks: [ID],
      method: 'POST',
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /destructive/, requests: 0 });
    expect(target.requests()).to.equal(0);
  });

  it('reaches GraphQL arguments: a url argument, and a URL split into host, port and path arguments', async () => {
    const demo = await startGraphqlDemo();
    try {
      const outcome = await scanGraphqlDemo(demo, [ID]);
      expect(findingsOf(outcome, ID)).to.deep.equal([
        `POST /graphql mutation.checkStatusPage | ${ISSUE}`,
        `POST /graphql mutation.importFromUrl | ${ISSUE}`,
      ]);
      const split = outcome.results.find((r) => r.checkId === ID && r.operationId.endsWith('checkStatusPage'))!;
      expect(JSON.parse(split.attempts[0].request.body!)).to.deep.include({ operationName: 'MutationCheckStatusPage' });
      expect(split.findings[0].detail, 'the callback path names the argument').to.match(/argument-host/);
    } finally {
      await demo.close();
    }
    const secure = await startGraphqlDemo({ secure: true });
    try {
      expect(findingsOf(await scanGraphqlDemo(secure, [ID]), ID)).to.deep.equal([]);
    } finally {
      await secure.close();
    }
  });
});
