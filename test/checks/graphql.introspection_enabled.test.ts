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
