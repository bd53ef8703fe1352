import { expect } from 'chai';
import { validatorFor } from '../../../../lib/json-schema.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';

const capabilitiesSchema = validatorFor('https://gatehouse.dev/schemas/api/capabilities.schema.json');

describe('GET /api/v1/organizations/{organizationId}/capabilities', () => {
  let h: ServiceHarness;
  before(async () => {
    h = await startService();
  });
  after(() => h.close());

  it('returns the capabilities of the organization for this caller, valid against the schema', async () => {
    const org = await h.createOrganization('pro');
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/capabilities`)
      .set('Authorization', `Bearer ${await h.token({ scope: 'registrations:read registrations:write' })}`)
      .expect(200);
    expect(capabilitiesSchema(res.body), JSON.stringify(capabilitiesSchema.errors)).to.equal(true);
    expect(res.body).to.include({ organizationId: org.id, plan: 'pro' });
    expect(res.body.grantedScopes).to.deep.equal(['registrations:read', 'registrations:write']);
    expect(res.body.planLimits).to.include({ maxRegistrations: 50, registrations: 0, changeSets: true });
    expect(res.body.rateLimits).to.include({ limit: 600, windowSeconds: 60 });
    // PROVISIONING_SECRET_OVERLAP is off by default: rotations are immediate, and the record says so.
    expect(res.body.secretRotation).to.deep.equal({ overlap: false, defaultGraceSeconds: 0 });
    expect(res.body.policyProfiles.map((p: { id: string }) => p.id)).to.deep.equal(['pp_standard', 'pp_service']);
    expect(res.body.templates.map((t: { id: string }) => t.id)).to.deep.equal([
      'tpl_spa',
      'tpl_web',
      'tpl_native',
      'tpl_m2m',
    ]);
    expect(res.body.platformPolicy.redirectUris.forbiddenSchemes).to.include('javascript');
  });

  it("counts the organization's registrations against the plan limit", async () => {
    const org = await h.createOrganization('free');
    const bearer = `Bearer ${await h.token()}`;
    await h.request
      .post(`/api/v1/organizations/${org.id}/registrations`)
      .set('Authorization', bearer)
      .send({ name: 'Web', templateId: 'tpl_web' })
      .expect(201);
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/capabilities`)
      .set('Authorization', bearer)
      .expect(200);
    expect(res.body.planLimits).to.include({ maxRegistrations: 5, registrations: 1, changeSets: false });
    expect(res.body.rateLimits.limit).to.equal(60);
  });

  it('answers 404 not_found for an organization of another subject', async () => {
    const foreign = await h.createOrganization('enterprise', { subject: 'bob' });
    const res = await h.request
      .get(`/api/v1/organizations/${foreign.id}/capabilities`)
      .set('Authorization', `Bearer ${await h.token()}`)
      .expect(404);
    expect(res.body.error.code).to.equal('not_found');
  });

  it('needs registrations:read', async () => {
    const org = await h.createOrganization('pro');
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/capabilities`)
      .set('Authorization', `Bearer ${await h.token({ scope: 'registrations:write' })}`)
      .expect(403);
    expect(res.headers['www-authenticate']).to.match(/insufficient_scope/);
  });

  it('answers 405 for writes', async () => {
    const org = await h.createOrganization('pro');
    await h.request
      .patch(`/api/v1/organizations/${org.id}/capabilities`)
      .set('Authorization', `Bearer ${await h.token()}`)
      .send({})
      .expect(405);
  });
});

describe('GET /api/v1/capabilities (default-organization tree)', () => {
  let h: ServiceHarness;
  before(async () => {
    h = await startService({ env: { API_DEFAULT_ORGANIZATION_ENABLED: 'true' } });
  });
  after(() => h.close());

  it("describes the subject's default organization", async () => {
    await h.createOrganization('pro');
    const org = await h.createOrganization('enterprise', { isDefault: true });
    const res = await h.request
      .get('/api/v1/capabilities')
      .set('Authorization', `Bearer ${await h.token()}`)
      .expect(200);
    expect(res.body).to.include({ organizationId: org.id, plan: 'enterprise' });
  });

  it('answers 404 default_organization_not_set without a default grant', async () => {
    await h.createOrganization('pro', { subject: 'carol' });
    const res = await h.request
      .get('/api/v1/capabilities')
      .set('Authorization', `Bearer ${await h.token({ sub: 'carol' })}`)
      .expect(404);
    expect(res.body.error.code).to.equal('default_organization_not_set');
  });
});
