/**
 * No reviewer/admin action is reachable through the public API (docs/architecture.md §1.2, OWASP API5): every such path and
 * method under /api/v1, with a token holding every scope there is, answers 404 — also on the default-organization tree.
 */
import { expect } from 'chai';
import { newId } from '../../../server/ids.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS, seedRegistration } from './api-fixtures.js';

const EVERY_SCOPE =
  'openid profile email offline_access registrations:read registrations:write change_sets:write gatehouse:review gatehouse:admin';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const REVIEW_ACTIONS = [
  'approve',
  'reject',
  'request-changes',
  'request_changes',
  'requestChanges',
  'suspend',
  'unsuspend',
  'deprecate',
];

function reviewerPaths(prefix: string, reg: string, cs: string): string[] {
  const r = `${prefix}/registrations/${reg}`;
  return [
    ...REVIEW_ACTIONS.map((a) => `${r}/actions/${a}`),
    ...REVIEW_ACTIONS.map((a) => `${r}/${a}`),
    ...['approve', 'reject'].flatMap((a) => [`${r}/change-sets/${cs}/actions/${a}`, `${r}/change-sets/${cs}/${a}`]),
    `${r}/comments`,
    `${r}/comments/1`,
    `${r}/change-sets/${cs}/comments`,
    `${r}/reviews`,
    `${r}/review`,
    `${prefix}/review-queue`,
    `${prefix}/reviews`,
    `${prefix}/queue`,
    `${prefix}/api-access`,
    `${prefix}/grants`,
    `${prefix}/admin`,
    // The internal surface's own paths (server/internal/), mirrored onto the public prefix.
    `${r}/audit`,
    `${r}/provisioning/retry`,
    `${prefix}/audit`,
    `${prefix}/access`,
    `${prefix}/access/alice`,
    `${prefix}/plan`,
  ];
}

describe('reviewer and admin paths on the public API', () => {
  let h: ServiceHarness;

  before(async () => {
    h = await startService({ env: { ...NO_RATE_LIMITS, API_DEFAULT_ORGANIZATION_ENABLED: 'true' } });
  });
  after(async () => {
    await h.close();
  });

  it('answers 404 to every reviewer/admin path and method, whatever the token’s scopes', async () => {
    const org = await h.createOrganization('enterprise', { isDefault: true });
    const pending = await seedRegistration(h, org, { status: 'pending_review', submittedBy: 'someone-else' });
    const active = await seedRegistration(h, org, { status: 'active' });
    const auth = `Bearer ${await h.token({ scope: EVERY_SCOPE, sub: 'alice' })}`;
    const cs = newId('cs');
    const paths = [
      ...reviewerPaths(`/api/v1/organizations/${org.id}`, pending.id, cs),
      ...reviewerPaths(`/api/v1/organizations/${org.id}`, active.id, cs),
      ...reviewerPaths('/api/v1', pending.id, cs),
      '/api/v1/review-queue',
      '/api/v1/admin',
      '/api/v1/admin/organizations',
      '/api/v1/internal/registrations',
      '/api/v1/audit',
      '/api/v1/internal/v1/review-queue',
      `/api/v1/organizations/${org.id}/api-access/grants`,
    ];
    for (const path of paths) {
      for (const method of METHODS) {
        const res = await h.request[method](path).set('Authorization', auth).send({});
        expect(res.status, `${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
    }
    expect((await h.deps.store.registrations.get(org.id, pending.id))?.status).to.equal('pending_review');
    expect((await h.deps.store.registrations.get(org.id, active.id))?.status).to.equal('active');
  });
});
