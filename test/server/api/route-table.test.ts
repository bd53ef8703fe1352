/** The route table (server/api-routes.ts) is what the service mounts: each route with its scope, its path's 405. */
import { expect } from 'chai';
import { API_ROUTES } from '../../../server/api-routes.js';
import type { ApiRoute } from '../../../server/http/api-route.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS } from './api-fixtures.js';

/** A concrete path for a route: parameters get a well-formed but unknown id (the scope check comes first). */
function concrete(route: ApiRoute, prefix: string): string {
  return `/api/v1${prefix}${route.path.replace(/:\w+/g, 'reg_0000000000000000000000')}`;
}

describe('the route table of the public API', () => {
  let h: ServiceHarness;
  let trees: [string, readonly ApiRoute[]][];

  before(async () => {
    h = await startService({ env: NO_RATE_LIMITS });
    const org = await h.createOrganization('enterprise');
    trees = [
      ['', API_ROUTES.topLevel],
      [`/organizations/${org.id}`, API_ROUTES.organizationScoped],
    ];
  });
  after(async () => {
    await h.close();
  });

  it('mounts every route, refusing a token without its scope with 403 insufficient_scope naming that scope', async () => {
    const auth = `Bearer ${await h.token({ scope: 'openid' })}`;
    for (const [prefix, routes] of trees) {
      for (const route of routes) {
        const path = concrete(route, prefix);
        const res = await h.request[route.method](path).set('Authorization', auth);
        expect([res.status, res.body.error?.code], `${route.method} ${path}`).to.deep.equal([
          403,
          'insufficient_scope',
        ]);
        expect(res.headers['www-authenticate']).to.contain(`scope="${route.scope}"`);
      }
    }
  });

  it('answers 405 on every path for a method no route declares, with Allow listing the declared ones', async () => {
    const auth = `Bearer ${await h.token()}`;
    for (const [prefix, routes] of trees) {
      for (const path of new Set(routes.map((route) => route.path))) {
        const declared = routes.filter((route) => route.path === path).map((route) => route.method.toUpperCase());
        const expected = declared.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
        const url = concrete({ path } as ApiRoute, prefix);
        const res = await h.request.put(url).set('Authorization', auth).send({});
        expect([res.status, res.body.error.code], `PUT ${url}`).to.deep.equal([405, 'method_not_allowed']);
        expect(res.headers.allow?.split(', '), url).to.deep.equal(expected);
      }
    }
  });
});
