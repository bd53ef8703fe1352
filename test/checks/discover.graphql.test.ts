import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startSiteTarget } from '../fixtures/targets/site-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { startGraphqlDemo } from '../fixtures/targets/graphql-demo-target.js';
import { discoverTarget } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.graphql';
const PATHS = 21;

describe('discover.graphql', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.discoverable_graphql (0) when a path answers {__typename} like GraphQL', async () => {
    target = await startSiteTarget({
      '/graphql': { type: 'application/json', body: '{"data":{"__typename":"Query"}}' },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'discover.discoverable_graphql': 0 },
      requests: 1 + PATHS,
    });
    expect(resultOf(outcome, ID).data?.urls).to.deep.equal([target.url('/graphql')]);
  });

  it('finds a GraphiQL IDE page', async () => {
    target = await startSiteTarget({
      '/graphiql': { type: 'text/html', body: '<html><script src="graphiql.min.js"></script></html>' },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expect(resultOf(outcome, ID).data?.urls).to.deep.equal([target.url('/graphiql')]);
  });

  it('passes on a single-page app and on a JSON API that answers 200 with something else', async () => {
    target = await startSiteTarget(
      { '/graph': { type: 'application/json', body: '{"nodes":[]}' } },
      { catchAll: true },
    );
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });

  it('tells the GraphQL endpoint from the IDE page it finds (the GraphQL demo: /graphql and /graphiql)', async () => {
    const demo = await startGraphqlDemo();
    try {
      const origin = new URL(demo.url).origin;
      const result = resultOf(await discoverTarget(`${origin}/`, [ID]), ID);
      expect(result.data).to.deep.include({ endpoints: [`${origin}/graphql`], ides: [`${origin}/graphiql`] });
    } finally {
      await demo.close();
    }
  });
});
