import { expect } from 'chai';
import { validatorFor } from '../../../../lib/json-schema.js';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';

const templateSchema = validatorFor('https://gatehouse.dev/schemas/api/template.schema.json');

describe('GET /api/v1/organizations/{organizationId}/templates', () => {
  let h: ServiceHarness;
  let org: Organization;
  let bearer: string;
  before(async () => {
    h = await startService();
    org = await h.createOrganization('pro');
    bearer = `Bearer ${await h.token()}`;
  });
  after(() => h.close());

  it('lists the four platform templates, each valid against its schema', async () => {
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/templates`)
      .set('Authorization', bearer)
      .expect(200);
    expect(res.body.data.map((t: { id: string }) => t.id)).to.deep.equal([
      'tpl_m2m',
      'tpl_native',
      'tpl_spa',
      'tpl_web',
    ]);
    expect(res.body.nextCursor).to.equal(null);
    for (const t of res.body.data) expect(templateSchema(t), JSON.stringify(templateSchema.errors)).to.equal(true);
  });

  it('reads one template with its defaults', async () => {
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/templates/tpl_spa`)
      .set('Authorization', bearer)
      .expect(200);
    expect(res.body).to.include({
      id: 'tpl_spa',
      clientType: 'public',
      applicationType: 'spa',
      policyProfileId: 'pp_standard',
    });
    expect(res.body.defaults).to.include({ tokenEndpointAuthMethod: 'none', requirePkce: true });
  });

  it('answers 404 not_found for an unknown template', async () => {
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/templates/tpl_unknown`)
      .set('Authorization', bearer)
      .expect(404);
    expect(res.body.error.code).to.equal('not_found');
  });

  it('rejects a malformed limit with 400 invalid_request', async () => {
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/templates?limit=0`)
      .set('Authorization', bearer)
      .expect(400);
    expect(res.body.error.code).to.equal('invalid_request');
  });

  it('refuses a cursor of another organization with 400 invalid_cursor', async () => {
    const other = await h.createOrganization('pro');
    const first = await h.request
      .get(`/api/v1/organizations/${other.id}/templates?limit=1`)
      .set('Authorization', bearer)
      .expect(200);
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/templates?cursor=${first.body.nextCursor}`)
      .set('Authorization', bearer)
      .expect(400);
    expect(res.body.error.code).to.equal('invalid_cursor');
  });

  it('is read-only: 405 for writes', async () => {
    const res = await h.request
      .delete(`/api/v1/organizations/${org.id}/templates/tpl_spa`)
      .set('Authorization', bearer)
      .expect(405);
    expect(res.headers.allow).to.equal('GET, HEAD');
  });
});
