/** The policy engine as callers meet it: through create (structural limits) and submit (every violation at once). */
import { expect } from 'chai';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';

describe('registration policy over HTTP', () => {
  let h: ServiceHarness;
  let org: Organization;
  let bearer: string;
  const base = () => `/api/v1/organizations/${org.id}/registrations`;
  before(async () => {
    h = await startService();
    org = await h.createOrganization('free');
    bearer = `Bearer ${await h.token()}`;
  });
  after(() => h.close());

  it('answers 422 with every policy violation on submit and leaves the draft unchanged', async () => {
    const created = await h.request
      .post(base())
      .set('Authorization', bearer)
      .send({
        name: 'Bad SPA',
        clientType: 'public',
        applicationType: 'spa',
        policyProfileId: 'pp_fapi2',
        config: {
          redirectUris: [
            'http://app.example.com/cb',
            'https://app.example.com/cb#x',
            'javascript:alert(1)',
            'https://*.example.com/cb',
          ],
          grantTypes: ['authorization_code', 'implicit', 'password', 'client_credentials'],
          responseTypes: ['code', 'token'],
          tokenEndpointAuthMethod: 'client_secret_basic',
          requirePkce: false,
        },
      })
      .expect(201);
    const res = await h.request
      .post(`${base()}/${created.body.id}/actions/submit`)
      .set('Authorization', bearer)
      .send({})
      .expect(422);
    expect(res.body.error.code).to.equal('validation_failed');
    const paths = new Set(res.body.error.fields.map((f: { path: string }) => f.path));
    for (const path of [
      'policyProfileId',
      'clientType',
      'config.redirectUris[0]',
      'config.redirectUris[1]',
      'config.redirectUris[2]',
      'config.redirectUris[3]',
      'config.grantTypes[1]',
      'config.grantTypes[2]',
      'config.grantTypes[3]',
      'config.responseTypes[1]',
      'config.tokenEndpointAuthMethod',
      'config.requirePkce',
    ]) {
      expect(paths, path).to.include(path);
    }
    const after = await h.request.get(`${base()}/${created.body.id}`).set('Authorization', bearer).expect(200);
    expect(after.body).to.include({ status: 'draft', revision: created.body.revision });
  });

  it('refuses more than 100 redirect URIs even on a draft', async () => {
    const redirectUris = Array.from({ length: 101 }, (_, i) => `https://app.example.com/${i}`);
    const res = await h.request
      .post(base())
      .set('Authorization', bearer)
      .send({ name: 'Too many', templateId: 'tpl_web', config: { redirectUris } })
      .expect(422);
    expect(res.body.error.fields).to.deep.include({
      path: 'config.redirectUris',
      message: 'must NOT have more than 100 items',
    });
  });

  it('submits a native app whose redirect URIs follow RFC 8252 and shows the effective config', async () => {
    const created = await h.request
      .post(base())
      .set('Authorization', bearer)
      .send({
        name: 'Native',
        templateId: 'tpl_native',
        config: { redirectUris: ['http://127.0.0.1/cb', 'com.example.app:/oauth2redirect'] },
      })
      .expect(201);
    expect(created.body.config).to.include({ tokenEndpointAuthMethod: 'none', requirePkce: true });
    const res = await h.request
      .post(`${base()}/${created.body.id}/actions/submit`)
      .set('Authorization', bearer)
      .send({})
      .expect(200);
    expect(res.body.status).to.equal('pending_review');
  });
});
