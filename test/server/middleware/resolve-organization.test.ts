import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { createMemoryGrantRepository } from '../../../server/components/grants/grants.repository.js';
import { createMemoryOrganizationRepository } from '../../../server/components/organizations/organizations.repository.js';
import { resolveDefaultOrganization, resolveOrganization } from '../../../server/middleware/resolve-organization.js';
import { errorHandler } from '../../../server/middleware/error-handler.js';
import { silentLogger } from '../../../lib/logger.js';
import type { Store } from '../../../server/deps.js';
import { directResolutionReads } from '../../../server/store/resolution-cache.js';

async function setup() {
  const repositories = {
    organizations: createMemoryOrganizationRepository(),
    grants: createMemoryGrantRepository(),
  };
  const store = { ...repositories, resolution: directResolutionReads(repositories) } as unknown as Store;
  const mine = await store.organizations.create({ name: 'Mine', plan: 'pro' });
  const other = await store.organizations.create({ name: 'Other', plan: 'free' });
  await store.grants.grant({ organizationId: mine.id, subject: 'alice', isDefault: false });
  await store.grants.grant({ organizationId: other.id, subject: 'bob', isDefault: true });
  const app = express();
  app.use((req, _res, next) => {
    req.requestId = 'test';
    req.principal = { sub: String(req.headers['x-sub']), scopes: new Set(), tokenKind: 'jwt' };
    next();
  });
  const deps = { store };
  app.get('/organizations/:organizationId/whoami', resolveOrganization(deps), (req, res) => {
    res.json({ id: req.organization?.id });
  });
  app.get('/whoami', resolveDefaultOrganization(deps), (req, res) => {
    res.json({ id: req.organization?.id });
  });
  app.use(errorHandler(silentLogger));
  return { app, store, mine, other };
}

describe('resolveOrganization', () => {
  it('sets req.organization when the subject has a grant', async () => {
    const { app, mine } = await setup();
    const res = await request(app).get(`/organizations/${mine.id}/whoami`).set('x-sub', 'alice').expect(200);
    expect(res.body).to.deep.equal({ id: mine.id });
  });

  it('answers 404 not_found for an organization the subject has no grant for', async () => {
    const { app, other } = await setup();
    const res = await request(app).get(`/organizations/${other.id}/whoami`).set('x-sub', 'alice').expect(404);
    expect(res.body.error).to.include({ code: 'not_found' });
  });

  it('answers the same 404 for an unknown and for a malformed id', async () => {
    const { app } = await setup();
    const unknown = await request(app)
      .get('/organizations/org_0000000000000000/whoami')
      .set('x-sub', 'alice')
      .expect(404);
    const malformed = await request(app).get('/organizations/nope/whoami').set('x-sub', 'alice').expect(404);
    expect(unknown.body.error.code).to.equal('not_found');
    expect(malformed.body.error).to.deep.equal({ ...unknown.body.error });
  });

  it('answers 404 when the grant outlives a deleted organization record', async () => {
    const { app, store } = await setup();
    await store.grants.grant({ organizationId: 'org_ghostghostghost00', subject: 'alice', isDefault: false });
    await request(app).get('/organizations/org_ghostghostghost00/whoami').set('x-sub', 'alice').expect(404);
  });
});

describe('resolveDefaultOrganization', () => {
  it("sets the subject's default organization", async () => {
    const { app, other } = await setup();
    const res = await request(app).get('/whoami').set('x-sub', 'bob').expect(200);
    expect(res.body).to.deep.equal({ id: other.id });
  });

  it('answers 404 default_organization_not_set when the subject has grants but no default', async () => {
    const { app } = await setup();
    const res = await request(app).get('/whoami').set('x-sub', 'alice').expect(404);
    expect(res.body.error.code).to.equal('default_organization_not_set');
  });

  it('answers 404 default_organization_not_set for a subject without grants', async () => {
    const { app } = await setup();
    const res = await request(app).get('/whoami').set('x-sub', 'carol').expect(404);
    expect(res.body.error.code).to.equal('default_organization_not_set');
  });
});
