import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startSiteTarget } from '../fixtures/targets/site-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { discoverTarget } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.discoverable_openapi';
const PATHS = 30;

describe('discover.discoverable_openapi', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.discoverable_openapi (0) and publishes the URL of a published OpenAPI document', async () => {
    target = await startSiteTarget({
      '/openapi.json': {
        type: 'application/json',
        body: JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} }),
      },
    });
    const outcome = await discoverTarget(target.url('/api/v1/users'), [ID]);
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'discover.discoverable_openapi': 0 },
      requests: 1 + PATHS,
    });
    expect(resultOf(outcome, ID).data?.urls).to.deep.equal([target.url('/openapi.json')]);
  });

  it('finds a YAML description and a Swagger UI page', async () => {
    target = await startSiteTarget({
      '/swagger.yaml': { body: 'swagger: "2.0"\ninfo:\n  title: x\npaths: {}\n' },
      '/docs': { type: 'text/html', body: '<html><div id="swagger-ui"></div></html>' },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expect(resultOf(outcome, ID).data?.urls).to.have.members([target.url('/swagger.yaml'), target.url('/docs')]);
  });

  it('passes on a single-page app that answers 200 with the same page everywhere (VulnAPI flagged every path)', async () => {
    target = await startSiteTarget({}, { catchAll: true });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });

  it('passes when no path answers', async () => {
    target = await startSiteTarget({});
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
    expect(target.requests()).to.equal(1 + PATHS);
  });
});
