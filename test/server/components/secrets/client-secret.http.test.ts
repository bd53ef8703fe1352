/**
 * A client secret end to end on the public API, with our IdP as the authorization server: the secret it issued at
 * provisioning revealed once, rotation with a grace (both secrets work), retirement of the previous one, immediate
 * rotation, the policy's limits, the 7-day reveal window, owners only, and a rotation the IdP does not confirm
 * finished by the next one with the same secret.
 */
import { expect } from 'chai';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { createTokenCipher } from '../../../../server/components/provisioning/token-cipher.js';
import { sealedSecretBinding } from '../../../../server/components/provisioning/client-secret.model.js';
import { expectConforms } from '../../api/api-fixtures.js';
import { declarePolicyProfiles } from '../../../../server/components/policy-profiles/declared-policy-profiles.js';
import { applySeed } from '../../../../server/seed/apply-seed.js';
import { parseSeed } from '../../../../server/seed/read-seed-file.js';
import { SERVICE_CLIENT, startSecretHarness, type SecretHarness } from './secret-harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('client secrets on the public API (our IdP as the authorization server)', function () {
  this.timeout(30_000);
  let s: SecretHarness;
  let org: Organization;
  let alice: string;

  before(async function () {
    s = await startSecretHarness();
    org = await s.h.organization({ plan: 'pro' });
    alice = `Bearer ${await s.h.requesterToken('alice')}`;
  });
  after(() => s?.close());

  const url = (id: string, action = '') => `/api/v1/organizations/${org.id}/registrations/${id}${action}`;
  const post = (id: string, action: string, body?: object, auth = alice) =>
    s.h.public
      .post(url(id, `/actions/${action}`))
      .set('Authorization', auth)
      .send(body);

  it('keeps the secret the IdP issued sealed until the owner reveals it, once, and it works at /token', async () => {
    const { id, clientId } = await s.approvedClient(org);
    const read = await s.h.public.get(url(id)).set('Authorization', alice);
    expect(read.body.actions).to.include.members(['reveal_secret', 'rotate_secret']);
    expect(read.body.clientSecret).to.include({ revealed: false });
    expect(new Date(read.body.clientSecret.revealBefore).getTime() - Date.now()).to.be.closeTo(7 * DAY_MS, 60_000);
    // The provisioning record no longer holds a copy: the registration's sealed secret is the only one.
    expect((await s.h.deps.store.provisioning.getClient(org.id, id))?.clientSecretSealed).to.equal(undefined);

    const revealed = await post(id, 'reveal-secret');
    expectConforms(revealed);
    expect(revealed.status).to.equal(200);
    expect(revealed.headers['cache-control']).to.equal('no-store');
    expect(revealed.body.clientId).to.equal(clientId);
    expect(await s.tokenWith(clientId, revealed.body.clientSecret)).to.equal('token');
    expect(revealed.body.registration.clientSecret).to.include({ revealed: true });
    expect(revealed.body.registration.actions).to.not.include('reveal_secret');
    expect(revealed.body.registration.revision, 'a secret action leaves the revision alone').to.equal(
      read.body.revision,
    );
    expect((await s.h.deps.store.registrations.get(org.id, id))?.secret?.sealed).to.equal(undefined);

    const again = await post(id, 'reveal-secret');
    expectConforms(again);
    expect(again.status).to.equal(409);
    expect(again.body.error.message).to.match(/revealed at .*rotate/);
    const audit = await s.h.deps.store.audit.list({ organizationId: org.id, targetId: id, limit: 50 });
    expect(audit.map((e) => e.action)).to.include('reveal_secret');
    expect(JSON.stringify(audit)).to.not.contain(revealed.body.clientSecret);
  });

  it('rotates with a grace in which both secrets work, then retires the previous one', async () => {
    const { id, clientId } = await s.approvedClient(org);
    const first = (await post(id, 'reveal-secret')).body.clientSecret as string;
    const rotated = await post(id, 'rotate-secret', { graceSeconds: 3600 });
    expectConforms(rotated);
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    expect(rotated.headers['cache-control']).to.equal('no-store');
    expect(rotated.body.rotation).to.include({ graceSeconds: 3600, immediate: false });
    const second = rotated.body.clientSecret as string;
    expect(second).to.not.equal(first);
    expect(await s.tokenWith(clientId, first)).to.equal('token');
    expect(await s.tokenWith(clientId, second)).to.equal('token');
    expect(rotated.body.registration.actions).to.include('retire_previous_secret');
    expect(rotated.body.registration.clientSecret.previousExpiresAt).to.equal(
      rotated.body.rotation.previousSecretExpiresAt,
    );

    const retired = await post(id, 'retire-previous-secret');
    expectConforms(retired);
    expect(retired.status).to.equal(200);
    expect(retired.body.actions).to.not.include('retire_previous_secret');
    expect(retired.body.clientSecret).to.not.have.property('previousExpiresAt');
    expect(await s.tokenWith(clientId, first)).to.equal('invalid_client');
    expect(await s.tokenWith(clientId, second)).to.equal('token');
    const audit = await s.h.deps.store.audit.list({ organizationId: org.id, targetId: id, limit: 50 });
    expect(audit.map((e) => e.action)).to.include.members(['rotate_secret', 'retire_previous_secret']);
  });

  it('says in the capabilities that rotations keep the previous secret for a grace (PROVISIONING_SECRET_OVERLAP)', async () => {
    const caps = await s.h.public.get(`/api/v1/organizations/${org.id}/capabilities`).set('Authorization', alice);
    expect(caps.body.secretRotation).to.deep.equal({ overlap: true, defaultGraceSeconds: 86_400 });
  });

  it('rotates at once with graceSeconds 0, and refuses a grace above the policy profile', async () => {
    const { id, clientId } = await s.approvedClient(org);
    const first = (await post(id, 'reveal-secret')).body.clientSecret as string;
    const tooLong = await post(id, 'rotate-secret', { graceSeconds: 8 * 86_400 });
    expectConforms(tooLong);
    expect(tooLong.status).to.equal(422);
    expect(tooLong.body.error.fields).to.deep.equal([{ path: 'graceSeconds', message: 'must be at most 604800' }]);
    const rotated = await post(id, 'rotate-secret', { graceSeconds: 0 });
    expect(rotated.body.rotation).to.deep.equal({ graceSeconds: 0, immediate: true });
    expect(await s.tokenWith(clientId, first)).to.equal('invalid_client');
    expect(await s.tokenWith(clientId, rotated.body.clientSecret)).to.equal('token');
  });

  it('lets only owners handle secrets', async () => {
    const { id } = await s.approvedClient(org);
    await s.h.deps.store.grants.grant({ organizationId: org.id, subject: 'dev', isDefault: false, role: 'developer' });
    const dev = `Bearer ${await s.h.requesterToken('dev')}`;
    const read = await s.h.public.get(url(id)).set('Authorization', dev);
    expect(read.body.actions).to.not.include('reveal_secret');
    for (const action of ['reveal-secret', 'rotate-secret']) {
      const res = await post(id, action, {}, dev);
      expect(res.status, action).to.equal(403);
      expect(res.body.error.code, action).to.equal('forbidden');
    }
    expect((await s.h.deps.store.registrations.get(org.id, id))?.secret?.sealed).to.be.a('string');
  });

  it('discards a secret not revealed within 7 days: only a rotation gives one then', async () => {
    const { id, clientId } = await s.approvedClient(org);
    s.h.advance(7 * DAY_MS + 1000);
    try {
      const read = await s.h.public.get(url(id)).set('Authorization', alice);
      expect(read.body.actions).to.not.include('reveal_secret');
      expect(read.body.clientSecret).to.not.have.property('revealBefore');
      const late = await post(id, 'reveal-secret');
      expect(late.status).to.equal(409);
      expect(late.body.error.message).to.match(/not revealed within 7 days.*rotate/);
      const rotated = await post(id, 'rotate-secret', { graceSeconds: 0 });
      expect(rotated.status).to.equal(200);
      expect(await s.tokenWith(clientId, rotated.body.clientSecret)).to.equal('token');
    } finally {
      s.h.advance(-(7 * DAY_MS + 1000));
    }
  });

  it('answers 503 when the IdP does not confirm a rotation, and the next rotation finishes it with the same secret', async () => {
    const { id, clientId } = await s.approvedClient(org);
    const first = (await post(id, 'reveal-secret')).body.clientSecret as string;
    s.idp.testing!.fault({ endpoint: 'register', status: 503 });
    const failed = await post(id, 'rotate-secret', { graceSeconds: 600 });
    expectConforms(failed);
    expect(failed.status).to.equal(503);
    const pending = (await s.h.deps.store.registrations.get(org.id, id))?.secret?.pending;
    expect(pending, 'the rotation stays, to be resumed').to.not.equal(undefined);
    const sealedSecret = createTokenCipher(s.key).decrypt(pending!.sealed, sealedSecretBinding(id));
    expect(await s.tokenWith(clientId, first)).to.equal('token');

    const resumed = await post(id, 'rotate-secret', { graceSeconds: 600 });
    expect(resumed.status, JSON.stringify(resumed.body)).to.equal(200);
    expect(resumed.body.clientSecret).to.equal(sealedSecret);
    expect(await s.tokenWith(clientId, resumed.body.clientSecret)).to.equal('token');
    expect(await s.tokenWith(clientId, first), 'the previous secret within its grace').to.equal('token');
    expect((await s.h.deps.store.registrations.get(org.id, id))?.secret?.pending).to.equal(undefined);
  });

  it('lists no secret action for a public client, and refuses them', async () => {
    const { id } = await s.approvedClient(org, {
      name: 'SPA',
      clientType: 'public',
      applicationType: 'spa',
      policyProfileId: 'pp_standard',
      config: { redirectUris: ['https://app.example.com/cb'], grantTypes: ['authorization_code'] },
    });
    const read = await s.h.public.get(url(id)).set('Authorization', alice);
    expect(read.body.actions.filter((a: string) => a.includes('secret'))).to.deep.equal([]);
    expect(read.body).to.not.have.property('clientSecret');
    expect((await post(id, 'rotate-secret')).status).to.equal(409);
  });
});

describe('client secrets against an authorization server that cannot keep two (PROVISIONING_SECRET_OVERLAP off)', function () {
  this.timeout(30_000);
  let s: SecretHarness;

  before(async function () {
    s = await startSecretHarness({ env: { PROVISIONING_SECRET_OVERLAP: 'false' } });
  });
  after(() => s?.close());

  it('rotates at once whatever grace is asked, and the answer and the capabilities say so', async () => {
    const org = await s.h.organization({ plan: 'pro' });
    const alice = `Bearer ${await s.h.requesterToken('alice')}`;
    const { id, clientId } = await s.approvedClient(org);
    const base = `/api/v1/organizations/${org.id}`;
    const caps = await s.h.public.get(`${base}/capabilities`).set('Authorization', alice);
    expect(caps.body.secretRotation).to.deep.equal({ overlap: false, defaultGraceSeconds: 0 });
    const first = (
      await s.h.public.post(`${base}/registrations/${id}/actions/reveal-secret`).set('Authorization', alice)
    ).body.clientSecret as string;
    const rotated = await s.h.public
      .post(`${base}/registrations/${id}/actions/rotate-secret`)
      .set('Authorization', alice)
      .send({ graceSeconds: 3600 });
    expectConforms(rotated);
    expect(rotated.body.rotation).to.deep.equal({ graceSeconds: 0, immediate: true });
    expect(await s.tokenWith(clientId, first)).to.equal('invalid_client');
    expect(await s.tokenWith(clientId, rotated.body.clientSecret)).to.equal('token');
  });
});

describe("a policy profile's secret lifetime at the authorization server", function () {
  this.timeout(30_000);
  let s: SecretHarness;

  before(async function () {
    s = await startSecretHarness();
    await applySeed(
      s.h.deps.store,
      parseSeed(
        '{ "policyProfiles": [{ "id": "pp_one_day", "name": "One-day secrets", "basedOn": "pp_service", "constraints": { "maxSecretLifetimeDays": 1 } }] }',
        'seed.json',
      ),
      new Date(),
    );
  });
  after(async () => {
    declarePolicyProfiles([]);
    await s?.close();
  });

  it('gives the secret an expiry the IdP enforces, and a rotated secret the same lifetime', async () => {
    const org = await s.h.organization({ plan: 'pro' });
    const alice = `Bearer ${await s.h.requesterToken('alice')}`;
    const { id, clientId } = await s.approvedClient(org, { ...SERVICE_CLIENT, policyProfileId: 'pp_one_day' });
    const url = `/api/v1/organizations/${org.id}/registrations/${id}`;
    const revealed = await s.h.public.post(`${url}/actions/reveal-secret`).set('Authorization', alice);
    const expiresAt = new Date(revealed.body.clientSecretExpiresAt).getTime();
    expect(expiresAt - Date.now()).to.be.closeTo(DAY_MS, 60_000);
    expect(revealed.body.registration.clientSecret).to.include({ expired: false });
    expect(revealed.body.registration.actions).to.include('rotate_secret');
    expect(await s.tokenWith(clientId, revealed.body.clientSecret)).to.equal('token');
    try {
      // oidc-provider allows 15 s of clock tolerance past client_secret_expires_at.
      s.idp.testing!.setClock(DAY_MS / 1000 + 60);
      expect(await s.tokenWith(clientId, revealed.body.clientSecret)).to.equal('invalid_client');
    } finally {
      s.idp.testing!.setClock(0);
    }
    const rotated = await s.h.public.post(`${url}/actions/rotate-secret`).set('Authorization', alice).send({});
    expect(new Date(rotated.body.clientSecretExpiresAt).getTime() - Date.now()).to.be.closeTo(DAY_MS, 60_000);
  });
});
