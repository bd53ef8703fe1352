import { expect } from 'chai';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

/** Every internal route with a method and a sample path: the deny-by-default walk. */
const ORG = 'org_AAAAAAAAAAAAAAAAAAAAAA';
const REG = 'reg_AAAAAAAAAAAAAAAAAAAAAA';
const CS = 'cs_AAAAAAAAAAAAAAAAAAAAAA';
const ROUTES: [string, string][] = [
  ['get', '/internal/v1/review-queue'],
  ['get', '/internal/v1/audit'],
  ['post', '/internal/v1/organizations'],
  ['get', `/internal/v1/organizations/${ORG}`],
  ['put', `/internal/v1/organizations/${ORG}/plan`],
  ['post', `/internal/v1/organizations/${ORG}/access`],
  ['delete', `/internal/v1/organizations/${ORG}/access/bob`],
  ['get', `/internal/v1/organizations/${ORG}/audit`],
  ['get', `/internal/v1/organizations/${ORG}/registrations/${REG}`],
  ...['approve', 'reject', 'request-changes', 'suspend', 'unsuspend', 'deprecate'].map((a): [string, string] => [
    'post',
    `/internal/v1/organizations/${ORG}/registrations/${REG}/actions/${a}`,
  ]),
  ['post', `/internal/v1/organizations/${ORG}/registrations/${REG}/change-sets/${CS}/actions/approve`],
  ['post', `/internal/v1/organizations/${ORG}/registrations/${REG}/change-sets/${CS}/actions/reject`],
  ['get', `/internal/v1/organizations/${ORG}/registrations/${REG}/comments`],
  ['post', `/internal/v1/organizations/${ORG}/registrations/${REG}/comments`],
  ['get', `/internal/v1/organizations/${ORG}/registrations/${REG}/audit`],
  ['post', `/internal/v1/organizations/${ORG}/registrations/${REG}/provisioning/retry`],
];

type Method = 'get' | 'post' | 'put' | 'delete';

describe('internal surface authentication', () => {
  let h: InternalHarness;
  before(async () => {
    h = await startInternal();
  });
  after(() => h.close());

  it('answers 401 unauthorized with a bare Bearer challenge when no token is sent', async () => {
    const res = await h.internal.get('/internal/v1/review-queue');
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('unauthorized');
    expect(res.headers['www-authenticate']).to.match(/^Bearer realm="gatehouse"$/);
  });

  it('refuses a public-API token (wrong audience) even when it carries the review scope', async () => {
    const token = await h.service.token({ sub: 'rita', scope: 'gatehouse:review' });
    const res = await h.internal.get('/internal/v1/review-queue').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('invalid_token');
  });

  it('denies every route to a valid internal token that has only requester scopes', async () => {
    const token = await h.staffToken('mallory', 'registrations:read registrations:write change_sets:write');
    for (const [method, path] of ROUTES) {
      const res = await h.internal[method as Method](path).set('Authorization', `Bearer ${token}`).send({});
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body.error.code, `${method} ${path}`).to.equal('insufficient_scope');
      expect(res.body.error.requestId).to.be.a('string');
    }
  });

  it('keeps admin operations from a reviewer and review decisions from an admin', async () => {
    const reviewer = await h.staffToken('rita', 'gatehouse:review');
    const admin = await h.staffToken('adam', 'gatehouse:admin');
    const adminOnly = ROUTES.filter(
      ([m, p]) => /organizations$|plan$|access|suspend|unsuspend|deprecate|retry$/.test(p) && m !== 'get',
    );
    const reviewOnly = ROUTES.filter(([, p]) => /actions\/(approve|reject|request-changes)$/.test(p));
    for (const [method, path] of adminOnly) {
      const res = await h.internal[method as Method](path).set('Authorization', `Bearer ${reviewer}`).send({});
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.headers['www-authenticate']).to.include('scope="gatehouse:admin"');
    }
    for (const [method, path] of reviewOnly) {
      const res = await h.internal[method as Method](path).set('Authorization', `Bearer ${admin}`).send({});
      expect(res.status, `${method} ${path}`).to.equal(403);
    }
  });

  it('answers unknown paths with the same 404 error envelope as the public API', async () => {
    const token = await h.staffToken('rita', 'gatehouse:review');
    const res = await h.internal.get('/internal/v1/nothing-here').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(404);
    expect(res.body).to.have.nested.property('error.code', 'not_found');
  });

  it('has no public API on the internal listener', async () => {
    const token = await h.requesterToken();
    const res = await h.internal.get('/api/v1/organizations').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(404);
  });
});
