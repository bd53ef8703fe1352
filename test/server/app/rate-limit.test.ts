import { expect } from 'chai';
import { startService, type ServiceHarness } from '../../support/service-harness.js';

describe('per-plan rate limits on organization routes', () => {
  let h: ServiceHarness;
  before(async () => {
    h = await startService({ env: { RATE_LIMIT_PER_MINUTE_FREE: '3', RATE_LIMIT_PER_MINUTE_PRO: '5' } });
  });
  after(async () => {
    await h.close();
  });

  it('sends RateLimit-Policy and RateLimit on successes and errors, then 429 with Retry-After', async () => {
    const org = await h.createOrganization('free');
    const auth = `Bearer ${await h.token()}`;
    const ok = await h.request.get(`/api/v1/organizations/${org.id}/registrations`).set('Authorization', auth);
    expect(ok.status).to.equal(200);
    expect(ok.headers['ratelimit-policy']).to.equal('"free";q=3;w=60');
    expect(ok.headers['ratelimit']).to.match(/^"free";r=2;t=\d+$/);
    const missing = await h.request
      .get(`/api/v1/organizations/${org.id}/registrations/reg_0000000000000000000000`)
      .set('Authorization', auth);
    expect(missing.status).to.equal(404);
    expect(missing.headers['ratelimit']).to.match(/^"free";r=1;t=\d+$/);
    await h.request.get(`/api/v1/organizations/${org.id}/capabilities`).set('Authorization', auth);
    const limited = await h.request.get(`/api/v1/organizations/${org.id}/registrations`).set('Authorization', auth);
    expect(limited.status).to.equal(429);
    expect(limited.body.error.code).to.equal('rate_limited');
    expect(Number(limited.headers['retry-after'])).to.be.at.least(1);
    expect(limited.headers['ratelimit']).to.match(/^"free";r=0;t=\d+$/);
  });

  it('uses the organization plan and counts each organization separately', async () => {
    const pro = await h.createOrganization('pro');
    const auth = `Bearer ${await h.token()}`;
    const res = await h.request.get(`/api/v1/organizations/${pro.id}/registrations`).set('Authorization', auth);
    expect(res.status).to.equal(200);
    expect(res.headers['ratelimit-policy']).to.equal('"pro";q=5;w=60');
  });

  it('counts each subject separately within one organization', async () => {
    const org = await h.createOrganization('free');
    await h.deps.store.grants.grant({ organizationId: org.id, subject: 'bob', isDefault: false });
    const alice = `Bearer ${await h.token()}`;
    for (let i = 0; i < 3; i += 1)
      await h.request.get(`/api/v1/organizations/${org.id}/registrations`).set('Authorization', alice);
    expect(
      (await h.request.get(`/api/v1/organizations/${org.id}/registrations`).set('Authorization', alice)).status,
    ).to.equal(429);
    const bob = await h.request
      .get(`/api/v1/organizations/${org.id}/registrations`)
      .set('Authorization', `Bearer ${await h.token({ sub: 'bob' })}`);
    expect(bob.status).to.equal(200);
  });

  it('limits GET /organizations per subject at the free rate under the policy "subject"', async () => {
    const auth = `Bearer ${await h.token({ sub: 'carol' })}`;
    for (let i = 0; i < 3; i += 1) {
      const res = await h.request.get('/api/v1/organizations').set('Authorization', auth);
      expect(res.status, `request ${i}: ${JSON.stringify(res.headers)}`).to.equal(200);
      expect(res.headers['ratelimit-policy']).to.equal('"subject";q=3;w=60');
    }
    const limited = await h.request.get('/api/v1/organizations').set('Authorization', auth);
    expect(limited.status).to.equal(429);
    expect(limited.body.error.code).to.equal('rate_limited');
  });
});
