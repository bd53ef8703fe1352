import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { buildSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import { curlFlagsFrom } from '../../scanner/curl-args.js';
import { operationFromCurl } from '../../scanner/curl-operation.js';
import { runScan } from '../../scanner/engine.js';
import type { ScanOutcome } from '../../scanner/scan-result.js';
import { graphqlOperations } from '../../scanner/graphql/operations.js';
import { selectChecks } from '../../scanner/select-checks.js';
import { loadedChecks, resultOf } from '../support/scan.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { scanAs } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'graphql.introspection_enabled';
const SCHEMA = { data: { __schema: { queryType: { name: 'Query' } } } };

/** A GraphQL endpoint: answers introspection on POST and/or GET as configured, otherwise a GraphQL error. */
function graphqlTarget(allow: { post: boolean; get: boolean }): Promise<Target> {
  return startTarget((req, res, body) => {
    const query =
      req.method === 'POST'
        ? String((JSON.parse(body || '{}') as { query?: string }).query ?? '')
        : (new URL(req.url ?? '/', 'http://x').searchParams.get('query') ?? '');
    const allowed = req.method === 'POST' ? allow.post : allow.get;
    if (query.includes('__schema') && allowed) return json(res, 200, SCHEMA);
    if (query.includes('__schema'))
      return json(res, 200, {
        errors: [{ message: 'GraphQL introspection is not allowed, but the query contained __schema or queryType' }],
      });
    json(res, 200, { data: { __typename: 'Query' } });
  });
}

describe('graphql.introspection_enabled', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with graphql.introspection_enabled (0) after one POST when introspection answers', async () => {
    target = await graphqlTarget({ post: true, get: true });
    const outcome = await scanAs('graphql', target.url('/graphql'), [ID], { method: 'POST' });
    expectResult(outcome, ID, { status: 'failed', issues: { 'graphql.introspection_enabled': 0 }, requests: 1 });
  });

  it('fails when only GET introspection answers', async () => {
    target = await graphqlTarget({ post: false, get: true });
    const outcome = await scanAs('graphql', target.url('/graphql'), [ID], { method: 'POST' });
    expectResult(outcome, ID, { status: 'failed', issues: { 'graphql.introspection_enabled': 0 }, requests: 2 });
  });

  it('passes with two requests when introspection is disabled, even if the error quotes queryType (VulnAPI matched the substring)', async () => {
    target = await graphqlTarget({ post: false, get: false });
    const outcome = await scanAs('graphql', target.url('/graphql'), [ID], { method: 'POST' });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });
});

/** An API on graphql-http whose `orders` field needs `Authorization: Bearer good` when `private` is set. */
async function apiTarget(options: { private: boolean }): Promise<Target> {
  const schema = buildSchema('type Query { orders: [String!]! }');
  const handler = createHandler({
    schema,
    context: (req) => ({ signedIn: req.raw.headers.authorization === 'Bearer good' }),
    rootValue: {
      orders: (_args: unknown, context: { signedIn: boolean }) => {
        if (options.private && !context.signedIn) throw new Error('not authenticated');
        return ['o1'];
      },
    },
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path = '/') => `${origin}${path}`,
    requests: () => 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function scanApi(target: Target): Promise<ScanOutcome> {
  const base = operationFromCurl(
    target.url('/graphql'),
    curlFlagsFrom({
      request: 'POST',
      header: ['Authorization: Bearer good'],
      json: ['{"query":"query{__typename}"}'],
    }),
  );
  const operations = graphqlOperations(buildSchema('type Query { orders: [String!]! }'), base, 'introspection');
  const selected = selectChecks(await loadedChecks(), { scans: [ID], severityThreshold: 0 }).checks;
  return runScan({ kind: 'graphql', operations, checks: selected, rate: { count: 1000, perMs: 1000 } });
}

describe('graphql.introspection_enabled on APIs that do or do not require a credential', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('is Medium (graphql.introspection_enabled_private) when a field is refused without the credential', async () => {
    target = await apiTarget({ private: true });
    const outcome = await scanApi(target);
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'graphql.introspection_enabled_private': 5.3 },
      requests: 3,
    });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/anonymous clients read it too/);
  });

  it('stays Info when the API answers its fields without a credential', async () => {
    target = await apiTarget({ private: false });
    expectResult(await scanApi(target), ID, {
      status: 'failed',
      issues: { 'graphql.introspection_enabled': 0 },
      requests: 2,
    });
  });
});
