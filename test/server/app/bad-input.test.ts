import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';

/** Transport-level bad input against the real registration endpoints: the right 4xx envelope, nothing stored. */
describe('bad input on /api/v1 (transport level)', () => {
  let h: ServiceHarness;
  let org: Organization;
  let auth: string;
  let regPath: string;
  let original: Record<string, unknown>;

  before(async () => {
    h = await startService();
    org = await h.createOrganization('pro');
    auth = `Bearer ${await h.token()}`;
    const created = await h.request
      .post(`/api/v1/organizations/${org.id}/registrations`)
      .set('Authorization', auth)
      .send({ name: 'Original', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    regPath = `/api/v1/organizations/${org.id}/registrations/${created.body.id}`;
    original = created.body;
  });
  after(async () => {
    await h.close();
  });

  async function expectUnchanged(): Promise<void> {
    const res = await h.request.get(regPath).set('Authorization', auth);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(original);
    const list = await h.request.get(`/api/v1/organizations/${org.id}/registrations`).set('Authorization', auth);
    expect(list.body.data).to.have.length(1);
  }

  function expectError(
    res: { status: number; body: { error?: { code: string; requestId: string } }; headers: Record<string, string> },
    status: number,
    code: string,
  ) {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.error?.code).to.equal(code);
    expect(res.body.error?.requestId).to.equal(res.headers['x-request-id']);
  }

  it('answers 400 invalid_request for malformed JSON', async () => {
    const res = await h.request
      .patch(regPath)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send('{"name": "x",');
    expectError(res, 400, 'invalid_request');
    await expectUnchanged();
  });

  it('answers 415 unsupported_media_type for a form body', async () => {
    const res = await h.request
      .post(`/api/v1/organizations/${org.id}/registrations`)
      .set('Authorization', auth)
      .type('form')
      .send({ name: 'x' });
    expectError(res, 415, 'unsupported_media_type');
    await expectUnchanged();
  });

  it('answers 413 payload_too_large for a 1 MiB body', async () => {
    const res = await h.request
      .patch(regPath)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ description: 'x'.repeat(1024 * 1024) }));
    expectError(res, 413, 'payload_too_large');
    await expectUnchanged();
  });

  it('refuses 10 000 redirect URIs with a 4xx envelope and stores nothing', async () => {
    const redirectUris = Array.from({ length: 10_000 }, (_, i) => `https://a.io/${i}`);
    const res = await h.request.patch(regPath).set('Authorization', auth).send({ config: { redirectUris } });
    expect(res.status).to.be.oneOf([413, 422]);
    expect(res.body.error.code).to.be.oneOf(['payload_too_large', 'validation_failed']);
    await expectUnchanged();
  });

  it('refuses 200 redirect URIs (under the body limit) with 422 validation_failed naming the field', async () => {
    const redirectUris = Array.from({ length: 200 }, (_, i) => `https://a.io/${i}`);
    const res = await h.request.patch(regPath).set('Authorization', auth).send({ config: { redirectUris } });
    expectError(res, 422, 'validation_failed');
    expect(res.body.error.fields.map((f: { path: string }) => f.path).join(' ')).to.contain('config.redirectUris');
    await expectUnchanged();
  });

  it('answers 422 for never-writable fields status and organizationId (no mass assignment)', async () => {
    for (const body of [
      { status: 'active' },
      { organizationId: 'org_0000000000000000000000' },
      { clientId: 'mine' },
      { revision: 99 },
    ]) {
      const res = await h.request.patch(regPath).set('Authorization', auth).send(body);
      expectError(res, 422, 'validation_failed');
    }
    await expectUnchanged();
  });

  it('answers 422 for $-operator payloads', async () => {
    for (const body of [
      { name: { $gt: '' } },
      { $set: { status: 'active' } },
      { config: { redirectUris: { $ne: null } } },
    ]) {
      const res = await h.request.patch(regPath).set('Authorization', auth).send(body);
      expectError(res, 422, 'validation_failed');
    }
    await expectUnchanged();
  });

  it('answers 422 for __proto__ and constructor keys and leaves prototypes alone', async () => {
    const res = await h.request
      .patch(regPath)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send('{"__proto__": {"status": "active"}, "config": {"constructor": {"prototype": {"polluted": true}}}}');
    expectError(res, 422, 'validation_failed');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(({} as Record<string, unknown>).status).to.equal(undefined);
    await expectUnchanged();
  });

  it('refuses the same payloads on create without creating anything', async () => {
    const path = `/api/v1/organizations/${org.id}/registrations`;
    for (const body of [
      { name: 'x', templateId: 'tpl_web', status: 'active' },
      { name: 'x', templateId: 'tpl_web', organizationId: 'org_0000000000000000000000' },
      { name: { $gt: '' }, templateId: 'tpl_web' },
    ]) {
      const res = await h.request.post(path).set('Authorization', auth).send(body);
      expectError(res, 422, 'validation_failed');
    }
    await expectUnchanged();
  });
});
