/** The default-organization route tree (docs/architecture.md §1.6): unprefixed paths act on the subject's default organization. */
import { expect } from 'chai';
import { ORGANIZATION_SCOPED_ROUTES } from '../../../server/api-routes.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS } from './api-fixtures.js';

/** Every organization-scoped route of the table without the organization prefix (parameters: an unknown id). */
const UNPREFIXED = ORGANIZATION_SCOPED_ROUTES.map((route) => ({
  method: route.method,
  path: `/api/v1${route.path.replace(/:\w+/g, 'reg_0000000000000000000000')}`,
}));

describe('the default-organization route tree', () => {
  describe('when API_DEFAULT_ORGANIZATION_ENABLED is true', () => {
    let h: ServiceHarness;
    before(async () => {
      h = await startService({ env: { ...NO_RATE_LIMITS, API_DEFAULT_ORGANIZATION_ENABLED: 'true' } });
    });
    after(async () => {
      await h.close();
    });

    it('creates and reads registrations in the default organization through unprefixed paths', async () => {
      const org = await h.createOrganization('pro', { isDefault: true });
      await h.createOrganization('pro');
      const auth = `Bearer ${await h.token()}`;
      const created = await h.request
        .post('/api/v1/registrations')
        .set('Authorization', auth)
        .send({ name: 'Default', templateId: 'tpl_spa' });
      expect(created.status).to.equal(201);
      expect(created.body.organizationId).to.equal(org.id);
      expect(created.headers.location).to.contain(`/api/v1/organizations/${org.id}/registrations/${created.body.id}`);
      const read = await h.request.get(`/api/v1/registrations/${created.body.id}`).set('Authorization', auth);
      expect(read.status).to.equal(200);
      const prefixed = await h.request
        .get(`/api/v1/organizations/${org.id}/registrations/${created.body.id}`)
        .set('Authorization', auth);
      expect(prefixed.body).to.deep.equal(read.body);
      for (const path of [
        '/api/v1/capabilities',
        '/api/v1/templates',
        '/api/v1/policy-profiles/pp_standard',
        '/api/v1/registrations',
      ]) {
        expect((await h.request.get(path).set('Authorization', auth)).status, path).to.equal(200);
      }
      const wrongMethod = await h.request.put('/api/v1/registrations').set('Authorization', auth).send({});
      expect(wrongMethod.status).to.equal(405);
    });

    it('answers 404 default_organization_not_set for a subject without a default', async () => {
      await h.createOrganization('pro', { subject: 'carol' });
      const auth = `Bearer ${await h.token({ sub: 'carol' })}`;
      const res = await h.request.get('/api/v1/registrations').set('Authorization', auth);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('default_organization_not_set');
    });

    it('claims every organization-scoped route of the route table, so a new one needs no second list', async () => {
      const auth = `Bearer ${await h.token({ sub: 'carol' })}`;
      expect(UNPREFIXED.length).to.equal(ORGANIZATION_SCOPED_ROUTES.length);
      for (const { method, path } of UNPREFIXED) {
        const res = await h.request[method](path).set('Authorization', auth);
        expect([res.status, res.body.error.code], `${method} ${path}`).to.deep.equal([
          404,
          'default_organization_not_set',
        ]);
      }
    });

    it('leaves other unknown paths a plain 404 not_found', async () => {
      const auth = `Bearer ${await h.token({ sub: 'carol' })}`;
      const res = await h.request.get('/api/v1/nothing-here').set('Authorization', auth);
      expect([res.status, res.body.error.code]).to.deep.equal([404, 'not_found']);
    });
  });

  describe('when it is off (the default)', () => {
    it('answers 404 not_found for the unprefixed paths', async () => {
      const h = await startService({ env: NO_RATE_LIMITS });
      try {
        await h.createOrganization('pro', { isDefault: true });
        const auth = `Bearer ${await h.token()}`;
        for (const { method, path } of UNPREFIXED) {
          const res = await h.request[method](path).set('Authorization', auth);
          expect([res.status, res.body.error.code], `${method} ${path}`).to.deep.equal([404, 'not_found']);
        }
      } finally {
        await h.close();
      }
    });
  });
});
