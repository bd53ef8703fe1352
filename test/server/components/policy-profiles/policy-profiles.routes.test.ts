import { expect } from 'chai';
import { validatorFor } from '../../../../lib/json-schema.js';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';

const profileSchema = validatorFor('https://gatehouse.dev/schemas/api/policy-profile.schema.json');

describe('GET /api/v1/organizations/{organizationId}/policy-profiles', () => {
  let h: ServiceHarness;
  let org: Organization;
  let bearer: string;
  before(async () => {
    h = await startService();
    org = await h.createOrganization('free');
    bearer = `Bearer ${await h.token()}`;
  });
  after(() => h.close());

  it('lists the platform profiles, each valid against its schema', async () => {
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles`)
      .set('Authorization', bearer)
      .expect(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).to.deep.equal(['pp_fapi2', 'pp_service', 'pp_standard']);
    expect(res.body.nextCursor).to.equal(null);
    for (const p of res.body.data) expect(profileSchema(p), JSON.stringify(profileSchema.errors)).to.equal(true);
  });

  it('pages with limit and cursor', async () => {
    const first = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles?limit=2`)
      .set('Authorization', bearer)
      .expect(200);
    expect(first.body.data).to.have.length(2);
    const second = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles?limit=2&cursor=${first.body.nextCursor}`)
      .set('Authorization', bearer)
      .expect(200);
    expect(second.body).to.deep.include({ nextCursor: null });
    expect(second.body.data.map((p: { id: string }) => p.id)).to.deep.equal(['pp_standard']);
  });

  it('reads one profile with its constraints', async () => {
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles/pp_fapi2`)
      .set('Authorization', bearer)
      .expect(200);
    expect(res.body).to.include({ id: 'pp_fapi2' });
    expect(res.body.appliesTo).to.deep.equal(['confidential']);
    expect(res.body.constraints).to.include({ requirePushedAuthorizationRequests: true });
    expect(res.body.constraints.tokenEndpointAuthMethods).to.deep.equal(['private_key_jwt']);
  });

  it('answers 404 not_found for an unknown profile', async () => {
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles/pp_nope`)
      .set('Authorization', bearer)
      .expect(404);
    expect(res.body.error.code).to.equal('not_found');
  });

  it('answers 404 for an organization without a grant', async () => {
    const foreign = await h.createOrganization('pro', { subject: 'bob' });
    await h.request.get(`/api/v1/organizations/${foreign.id}/policy-profiles`).set('Authorization', bearer).expect(404);
  });

  it('needs registrations:read', async () => {
    const token = await h.token({ scope: 'change_sets:write' });
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles/pp_standard`)
      .set('Authorization', `Bearer ${token}`)
      .expect(403);
    expect(res.body.error.code).to.equal('insufficient_scope');
  });

  it('is read-only: 405 for writes', async () => {
    await h.request
      .put(`/api/v1/organizations/${org.id}/policy-profiles/pp_standard`)
      .set('Authorization', bearer)
      .send({})
      .expect(405);
    await h.request
      .post(`/api/v1/organizations/${org.id}/policy-profiles`)
      .set('Authorization', bearer)
      .send({})
      .expect(405);
  });
});
