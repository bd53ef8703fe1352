/**
 * Team roles on the public API (docs/architecture.md §1.11): a grant's role decides what its subject may do in the
 * organization, whatever its token's scopes — a viewer reads, a developer acts on what it created, an owner on
 * everything — and `actions`, `blockedActions` and the capabilities record say so before a call is refused.
 */
import { expect } from 'chai';
import type { GrantRole } from '../../../server/components/grants/grants.model.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { expectConforms, NO_RATE_LIMITS, seedRegistration, VALID_WEB_CONFIG } from './api-fixtures.js';

const ALL_SCOPES = 'registrations:read registrations:write change_sets:write';

describe('team roles on the public API', () => {
  let h: ServiceHarness;
  let org: Organization;
  const auth = new Map<string, string>();
  const base = () => `/api/v1/organizations/${org.id}/registrations`;

  async function member(subject: string, role: GrantRole): Promise<void> {
    await h.deps.store.grants.grant({ organizationId: org.id, subject, isDefault: false, role });
    auth.set(subject, `Bearer ${await h.token({ sub: subject, scope: ALL_SCOPES })}`);
  }
  const as = (subject: string) => auth.get(subject) as string;

  before(async () => {
    h = await startService({ env: { ...NO_RATE_LIMITS, LOG_LEVEL: 'silent' } });
    org = await h.createOrganization('pro', { subject: 'olga' });
    auth.set('olga', `Bearer ${await h.token({ sub: 'olga', scope: ALL_SCOPES })}`);
    await member('vera', 'viewer');
    await member('dev', 'developer');
    await member('dana', 'developer');
  });
  after(async () => {
    await h.close();
  });

  it('makes a grant given without a role an owner (what every grant gave before roles)', async () => {
    expect((await h.deps.store.grants.find('olga', org.id))?.role).to.equal('owner');
    const caps = await h.request.get(`/api/v1/organizations/${org.id}/capabilities`).set('Authorization', as('olga'));
    expect(caps.body.role).to.equal('owner');
  });

  it("shows the caller's role in the capabilities record", async () => {
    for (const [subject, role] of [
      ['vera', 'viewer'],
      ['dev', 'developer'],
    ]) {
      const res = await h.request.get(`/api/v1/organizations/${org.id}/capabilities`).set('Authorization', as(subject));
      expectConforms(res);
      expect(res.body.role, subject).to.equal(role);
    }
  });

  describe('a viewer', () => {
    it('reads, but its actions are empty and every blocked action says forbidden', async () => {
      const draft = await seedRegistration(h, org, { createdBy: 'vera' });
      const res = await h.request.get(`${base()}/${draft.id}`).set('Authorization', as('vera'));
      expectConforms(res);
      expect(res.status).to.equal(200);
      expect(res.body.actions).to.deep.equal([]);
      expect(res.body.blockedActions.map((b: { code: string }) => b.code)).to.satisfy((codes: string[]) =>
        codes.every((code) => code === 'forbidden'),
      );
    });

    it('is refused a PATCH with 403 forbidden in the error envelope, and nothing changes', async () => {
      const draft = await seedRegistration(h, org);
      const res = await h.request
        .patch(`${base()}/${draft.id}`)
        .set('Authorization', as('vera'))
        .send({ description: 'viewer edit' });
      expectConforms(res);
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
      expect(res.body.error.message).to.match(/viewer/);
      expect(res.body.error.requestId).to.be.a('string');
      expect((await h.deps.store.registrations.get(org.id, draft.id))?.revision).to.equal(draft.revision);
    });

    it('cannot create a registration', async () => {
      const res = await h.request
        .post(base())
        .set('Authorization', as('vera'))
        .send({ name: 'Viewer app', templateId: 'tpl_web', config: VALID_WEB_CONFIG });
      expectConforms(res);
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    });
  });

  describe('a developer', () => {
    it('creates a registration, then edits and submits it', async () => {
      const created = await h.request
        .post(base())
        .set('Authorization', as('dev'))
        .send({ name: 'Dev app', templateId: 'tpl_web', config: VALID_WEB_CONFIG });
      expect(created.status).to.equal(201);
      expect(created.body.createdBy).to.equal('dev');
      expect(created.body.actions).to.include.members(['edit', 'submit', 'delete']);
      const url = `${base()}/${created.body.id}`;
      const edited = await h.request.patch(url).set('Authorization', as('dev')).send({ description: 'mine' });
      expect(edited.status).to.equal(200);
      const submitted = await h.request.post(`${url}/actions/submit`).set('Authorization', as('dev'));
      expect(submitted.status).to.equal(200);
      expect(submitted.body.status).to.equal('pending_review');
    });

    it("cannot delete another developer's registration, and is told why before trying", async () => {
      const theirs = await seedRegistration(h, org, { createdBy: 'dana' });
      const url = `${base()}/${theirs.id}`;
      const read = await h.request.get(url).set('Authorization', as('dev'));
      expect(read.body.actions).to.deep.equal([]);
      const blocked = (read.body.blockedActions as { action: string; code: string; message: string }[]).find(
        (b) => b.action === 'delete',
      );
      expect(blocked?.code).to.equal('forbidden');
      const res = await h.request.delete(url).set('Authorization', as('dev'));
      expectConforms(res);
      expect(res.status).to.equal(403);
      expect(res.body.error).to.include({ code: 'forbidden', message: blocked?.message });
      expect(await h.deps.store.registrations.get(org.id, theirs.id)).to.not.equal(null);
    });

    it('deletes its own draft', async () => {
      const own = await seedRegistration(h, org, { createdBy: 'dev' });
      const res = await h.request.delete(`${base()}/${own.id}`).set('Authorization', as('dev'));
      expect(res.status).to.equal(204);
    });

    it('cannot withdraw a change set another subject proposed', async () => {
      const active = await seedRegistration(h, org, { status: 'active', createdBy: 'dana' });
      const proposed = await h.request
        .post(`${base()}/${active.id}/change-sets`)
        .set('Authorization', as('olga'))
        .send({ changes: { contacts: ['ops@example.com'] } });
      expect(proposed.status).to.equal(201);
      const url = `${base()}/${active.id}/change-sets/${proposed.body.id}`;
      const read = await h.request.get(url).set('Authorization', as('dev'));
      expect(read.body.actions).to.deep.equal([]);
      const res = await h.request.post(`${url}/actions/withdraw`).set('Authorization', as('dev'));
      expectConforms(res);
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    });
  });

  describe('an owner', () => {
    it("deletes a developer's registration", async () => {
      const theirs = await seedRegistration(h, org, { createdBy: 'dana' });
      const read = await h.request.get(`${base()}/${theirs.id}`).set('Authorization', as('olga'));
      expect(read.body.actions).to.include('delete');
      const res = await h.request.delete(`${base()}/${theirs.id}`).set('Authorization', as('olga'));
      expect(res.status).to.equal(204);
    });
  });

  it('applies a role change at once: a developer made viewer can no longer edit its own draft', async () => {
    await member('flip', 'developer');
    const own = await seedRegistration(h, org, { createdBy: 'flip' });
    const url = `${base()}/${own.id}`;
    expect((await h.request.patch(url).set('Authorization', as('flip')).send({ description: 'a' })).status).to.equal(
      200,
    );
    await h.deps.store.grants.grant({ organizationId: org.id, subject: 'flip', isDefault: false, role: 'viewer' });
    const res = await h.request.patch(url).set('Authorization', as('flip')).send({ description: 'b' });
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('forbidden');
  });
});
