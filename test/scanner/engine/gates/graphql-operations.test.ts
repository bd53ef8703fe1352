import { expect } from 'chai';
import type { Operation } from '../../../../scanner/api.js';
import { runScan } from '../../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../../fixtures/targets/start-target.js';
import { curlOperation, lines, loaded, probe } from '../support/engine-fixture.js';

/** A GraphQL operation as scanner/graphql/ builds it: the endpoint (no field) or one root field. */
function graphqlOperation(url: string, field?: string): Operation {
  const base = curlOperation(url, { method: 'POST' });
  return {
    ...base,
    id: `POST ${new URL(url).pathname}${field ? ` query.${field}` : ''}`,
    graphql: {
      endpoint: url,
      kind: 'query',
      ...(field ? { field } : {}),
      document: field ? `query { ${field} }` : 'query{__typename}',
      variables: {},
      schemaSource: 'introspection',
    },
  };
}

describe('gate graphqlOperations', () => {
  let target: Target;
  before(async () => (target = await startTarget((_req, res) => json(res, 200, {}))));
  after(() => target.close());

  const operations = (): Operation[] => [
    curlOperation(target.url('/items')),
    graphqlOperation(target.url('/graphql')),
    graphqlOperation(target.url('/graphql'), 'orders'),
    curlOperation(target.url('/health')),
    graphqlOperation(target.url('/other/graphql')),
  ];

  it('runs an endpoint check once per GraphQL endpoint and reports nothing for the other operations', async () => {
    const outcome = await runScan({
      kind: 'openapi',
      operations: operations(),
      checks: [loaded(probe('t.endpoint', { graphqlOperations: 'endpoint' }))],
    });
    expect(lines(outcome.results)).to.deep.equal([
      't.endpoint POST /graphql passed',
      't.endpoint POST /other/graphql passed',
    ]);
  });

  it('runs a field check on each GraphQL field only', async () => {
    const outcome = await runScan({
      kind: 'graphql',
      operations: operations(),
      checks: [loaded(probe('t.field', { graphqlOperations: 'fields' }))],
    });
    expect(lines(outcome.results)).to.deep.equal(['t.field POST /graphql query.orders passed']);
  });

  it('skips a dependent on the operations its GraphQL dependency does not run on, with that reason', async () => {
    const outcome = await runScan({
      kind: 'openapi',
      operations: operations().slice(0, 2),
      checks: [
        loaded(probe('t.endpoint', { graphqlOperations: 'endpoint' })),
        loaded(probe('t.dependent', { dependsOn: ['t.endpoint'] })),
      ],
    });
    expect(lines(outcome.results)).to.deep.equal([
      't.endpoint POST /graphql passed',
      't.dependent GET /items skipped: dependency t.endpoint skipped: runs on GraphQL endpoints only',
      't.dependent POST /graphql passed',
    ]);
  });
});
