import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { expectConforms, seedRegistration } from '../../api/api-fixtures.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';

describe('POST /registrations/{id}/actions/rotate-secret', () => {
  let h: ServiceHarness;
  let org: Organization;
  let auth: string;
  before(async () => {
    h = await startService({ env: { LOG_LEVEL: 'silent' } });
    org = await h.createOrganization('pro');
    auth = `Bearer ${await h.token()}`;
  });
  after(() => h.close());

  const url = (id: string) => `/api/v1/organizations/${org.id}/registrations/${id}`;

  it('returns a new secret once, with no-store, and keeps only its hash', async () => {
    const record = await seedRegistration(h, org, { status: 'active' });
    const res = await h.request
      .post(`${url(record.id)}/actions/rotate-secret`)
      .set('Authorization', auth)
      .send({});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectConforms(res);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body.clientId).to.equal(record.clientId);
    expect(res.body.clientSecret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.registration.revision).to.equal(record.revision + 1);
    expect(res.headers.etag).to.equal(`"${record.revision + 1}"`);

    const stored = (await h.deps.store.registrations.get(org.id, record.id))!;
    const sha256 = createHash('sha256').update(res.body.clientSecret, 'utf8').digest('hex');
    expect(stored.clientSecretHash).to.equal(`sha256:${sha256}`);
    expect(JSON.stringify(stored)).not.to.include(res.body.clientSecret);
    const read = await h.request.get(url(record.id)).set('Authorization', auth);
    expect(JSON.stringify(read.body)).not.to.include(res.body.clientSecret);
    expect(read.body).not.to.have.property('clientSecretHash');
    expect(read.body.clientSecretIssuedAt).to.equal(res.body.clientSecretIssuedAt);
  });

  it('gives a different secret on every rotation, and audits each one', async () => {
    const record = await seedRegistration(h, org, { status: 'active' });
    const first = await h.request.post(`${url(record.id)}/actions/rotate-secret`).set('Authorization', auth);
    const second = await h.request.post(`${url(record.id)}/actions/rotate-secret`).set('Authorization', auth);
    expect(first.body.clientSecret).not.to.equal(second.body.clientSecret);
    const audit = await h.deps.store.audit.list({ registrationId: record.id, limit: 10 });
    expect(audit.map((e) => `${e.action}:${e.actor}:${e.revision}`)).to.deep.equal([
      `rotate_secret:alice:${record.revision + 1}`,
      `rotate_secret:alice:${record.revision + 2}`,
    ]);
    expect(JSON.stringify(audit)).not.to.include(first.body.clientSecret);
  });

  it('is listed for active confidential registrations only, and refused (409) for public clients and other statuses', async () => {
    const publicClient = await seedRegistration(h, org, {
      status: 'active',
      clientType: 'public',
      applicationType: 'spa',
    });
    const read = await h.request.get(url(publicClient.id)).set('Authorization', auth);
    expect(read.body.actions).not.to.include('rotate_secret');
    const refused = await h.request.post(`${url(publicClient.id)}/actions/rotate-secret`).set('Authorization', auth);
    expect(refused.status).to.equal(409);
    expect(read.body.blockedActions.find((b: { action: string }) => b.action === 'rotate_secret').code).to.equal(
      refused.body.error.code,
    );

    const suspended = await seedRegistration(h, org, { status: 'suspended' });
    expect(
      (await h.request.post(`${url(suspended.id)}/actions/rotate-secret`).set('Authorization', auth)).status,
    ).to.equal(409);
  });

  it('needs registrations:write (403 naming it) and honours If-Match (412)', async () => {
    const record = await seedRegistration(h, org, { status: 'active' });
    const readOnly = `Bearer ${await h.token({ scope: 'registrations:read' })}`;
    const res = await h.request.post(`${url(record.id)}/actions/rotate-secret`).set('Authorization', readOnly);
    expect(res.status).to.equal(403);
    expect(res.headers['www-authenticate']).to.include('scope="registrations:write"');
    const stale = await h.request
      .post(`${url(record.id)}/actions/rotate-secret`)
      .set('Authorization', auth)
      .set('If-Match', '"99"');
    expect(stale.status).to.equal(412);
    expect((await h.deps.store.registrations.get(org.id, record.id))!.clientSecretHash).to.equal(undefined);
  });
});
