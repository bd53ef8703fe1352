import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import * as oidc from 'openid-client';
import { createIdp, type RunningIdp } from '../../../idp/create-idp.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { createTokenCipher } from '../../../server/components/provisioning/token-cipher.js';
import type { RegistrationClient } from '../../../server/components/provisioning/registration-client.js';
import { headlessLogin, insecure } from '../../idp/support/relying-party.js';
import { startTcpProxy, type TcpProxy } from '../../idp/support/tcp-proxy.js';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

const INITIAL_ACCESS_TOKEN = `iat-${randomBytes(16).toString('hex')}`;
const KEY = randomBytes(32).toString('base64');
const CALLBACK = 'https://app.example.com/callback';
const SPA = {
  name: 'Single-page app',
  clientType: 'public',
  applicationType: 'spa',
  policyProfileId: 'pp_standard',
  config: { redirectUris: [CALLBACK], grantTypes: ['authorization_code'] },
};

/** Reads the client at the IdP with the registration access token Gatehouse stored (encrypted) for it. */
async function readAtIdp(
  h: InternalHarness,
  org: Organization,
  registrationId: string,
): Promise<{ status: number; body?: Record<string, unknown> }> {
  const client = (await h.deps.store.provisioning.getClient(org.id, registrationId))!;
  const token = createTokenCipher(KEY).decrypt(client.registrationAccessTokenEncrypted, registrationId);
  const res = await fetch(client.registrationClientUri, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined };
}

function provisioningEnv(endpoint: string): Record<string, string> {
  return {
    PROVISIONING_REGISTRATION_ENDPOINT: endpoint,
    PROVISIONING_INITIAL_ACCESS_TOKEN: INITIAL_ACCESS_TOKEN,
    PROVISIONING_ENCRYPTION_KEY: KEY,
    PROVISIONING_RETRY_S: '1',
    LOG_LEVEL: 'silent',
  };
}

describe('provisioning into our own IdP (RFC 7591 / 7592)', () => {
  let idp: RunningIdp;
  before(async () => {
    idp = await createIdp({
      port: 0,
      enableRegistration: true,
      registrationInitialAccessToken: INITIAL_ACCESS_TOKEN,
      skipPrompt: true,
    });
  });
  after(() => idp.close());

  describe('approve → change set → deprecate', () => {
    let h: InternalHarness;
    let org: Organization;
    let rita: string;
    let adam: string;
    before(async () => {
      h = await startInternal({ env: provisioningEnv(idp.registrationEndpoint!), provisioning: {} });
      org = await h.organization({ plan: 'pro' });
      rita = await h.staffToken('rita', 'gatehouse:review');
      adam = await h.staffToken('adam', 'gatehouse:admin');
    });
    after(() => h.close());

    it('registers the client at the IdP on approval, with the IdP-assigned clientId, and it completes a code flow', async () => {
      const id = await h.submitted(org, 'alice', SPA);
      const approved = await h.internal
        .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/approve`)
        .set('Authorization', `Bearer ${rita}`)
        .send({});
      expect(approved.status).to.equal(200);
      // No clientId until the IdP assigns one; the reviewer sees provisioning pending.
      expect(approved.body.clientId).to.equal(undefined);
      expect(approved.body.provisioning.status).to.equal('pending');

      await h.provisioning!.worker.runDue();
      const shown = await h.internal
        .get(`/internal/v1/organizations/${org.id}/registrations/${id}`)
        .set('Authorization', `Bearer ${rita}`);
      expect(shown.body.provisioning.status).to.equal('done');
      const clientId = shown.body.clientId as string;
      expect(clientId).to.be.a('string').and.equal(shown.body.provisioning.clientId);

      const stored = (await h.deps.store.provisioning.getClient(org.id, id))!;
      expect(stored.registrationAccessTokenEncrypted).to.match(/^v1\./);
      const atIdp = await readAtIdp(h, org, id);
      expect(atIdp.status).to.equal(200);
      expect(atIdp.body).to.include({
        client_id: clientId,
        client_name: 'Single-page app',
        token_endpoint_auth_method: 'none',
      });
      expect(atIdp.body!.redirect_uris).to.deep.equal([CALLBACK]);

      const config = await oidc.discovery(new URL(idp.issuer), clientId, undefined, oidc.None(), insecure);
      const { tokens } = await headlessLogin(config, idp, { redirectUri: CALLBACK });
      expect(tokens.claims()!.aud).to.equal(clientId);

      const audit = await h.deps.store.audit.list({ registrationId: id, limit: 10 });
      // Listed by time; the worker's entry may share the approval's millisecond, and entries of one millisecond come
      // in id order — so the last two are compared as a set, and their times as an order.
      const entries = audit.map((e) => `${e.actor}:${e.action}`);
      expect(entries.slice(0, 2)).to.deep.equal(['alice:create', 'alice:submit']);
      expect(entries.slice(2)).to.have.members(['rita:approve', 'system:provisioning:provisioning_register_done']);
      const at = (action: string) => audit.find((e) => e.action === action)!.at.getTime();
      expect(at('provisioning_register_done')).to.be.at.least(at('approve'));
    });

    it("updates the IdP's metadata when a change set is approved, and deletes the client on deprecation", async () => {
      const id = await h.submitted(org, 'alice', SPA);
      await h.internal
        .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/approve`)
        .set('Authorization', `Bearer ${rita}`)
        .send({});
      await h.provisioning!.worker.runDue();

      const proposed = await h.public
        .post(`/api/v1/organizations/${org.id}/registrations/${id}/change-sets`)
        .set('Authorization', `Bearer ${await h.requesterToken()}`)
        .send({
          changes: { redirectUris: [CALLBACK, 'https://app.example.com/second'], contacts: ['ops@example.com'] },
        });
      expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
      const decided = await h.internal
        .post(
          `/internal/v1/organizations/${org.id}/registrations/${id}/change-sets/${proposed.body.id}/actions/approve`,
        )
        .set('Authorization', `Bearer ${rita}`)
        .send({});
      expect(decided.status, JSON.stringify(decided.body)).to.equal(200);
      await h.provisioning!.worker.runDue();
      const updated = await readAtIdp(h, org, id);
      expect(updated.body!.redirect_uris).to.deep.equal([CALLBACK, 'https://app.example.com/second']);
      expect(updated.body!.contacts).to.deep.equal(['ops@example.com']);

      const deprecated = await h.internal
        .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/deprecate`)
        .set('Authorization', `Bearer ${adam}`)
        .send({});
      expect(deprecated.status).to.equal(200);
      await h.provisioning!.worker.runDue();
      expect((await readAtIdp(h, org, id)).status).to.equal(401);
      const shown = await h.internal
        .get(`/internal/v1/organizations/${org.id}/registrations/${id}`)
        .set('Authorization', `Bearer ${adam}`);
      expect(shown.body.provisioning).to.include({ status: 'done', deleted: true });
      expect(shown.body.provisioning.steps.map((s: { kind: string }) => s.kind)).to.deep.equal([
        'register',
        'update',
        'delete',
      ]);
    });
  });

  describe('with the IdP down during approval', () => {
    let h: InternalHarness;
    let proxy: TcpProxy;
    const calls = { register: 0, registered: 0 };
    before(async () => {
      const target = new URL(idp.registrationEndpoint!);
      proxy = await startTcpProxy(target.hostname, Number(target.port));
      const wrap = (real: RegistrationClient): RegistrationClient => ({
        ...real,
        async register(metadata) {
          calls.register += 1;
          const out = await real.register(metadata);
          calls.registered += 1;
          return out;
        },
      });
      h = await startInternal({
        env: provisioningEnv(`http://127.0.0.1:${proxy.port}${target.pathname}`),
        provisioning: { wrapClient: wrap },
      });
    });
    after(async () => {
      await h.close();
      await proxy.close();
    });

    it('shows provisioning pending with the error, retries after the backoff until the IdP is back, and registers exactly one client', async () => {
      const org = await h.organization({ plan: 'pro' });
      const rita = await h.staffToken('rita', 'gatehouse:review');
      const id = await h.submitted(org, 'alice', SPA);
      proxy.pause();
      const approved = await h.internal
        .post(`/internal/v1/organizations/${org.id}/registrations/${id}/actions/approve`)
        .set('Authorization', `Bearer ${rita}`)
        .send({});
      expect(approved.status).to.equal(200);
      await h.provisioning!.worker.runDue();

      const pending = await h.internal
        .get(`/internal/v1/organizations/${org.id}/registrations/${id}`)
        .set('Authorization', `Bearer ${rita}`);
      expect(pending.body.provisioning.status).to.equal('pending');
      expect(pending.body.provisioning.steps[0]).to.include({ kind: 'register', status: 'pending', attempts: 1 });
      expect(pending.body.provisioning.steps[0].lastError).to.match(/unreachable/);
      expect(pending.body.clientId).to.equal(undefined);

      // Not due yet: nothing runs before the retry time.
      expect(await h.provisioning!.worker.runDue()).to.equal(0);
      h.advance(1500);
      await h.provisioning!.worker.runDue();
      expect(calls).to.deep.equal({ register: 2, registered: 0 });

      proxy.resume();
      h.advance(5000);
      expect(await h.provisioning!.worker.runDue()).to.equal(1);
      h.advance(60_000);
      expect(await h.provisioning!.worker.runDue()).to.equal(0);
      expect(calls).to.deep.equal({ register: 3, registered: 1 });

      const done = await h.internal
        .get(`/internal/v1/organizations/${org.id}/registrations/${id}`)
        .set('Authorization', `Bearer ${rita}`);
      expect(done.body.provisioning.status).to.equal('done');
      expect(done.body.provisioning.steps).to.have.length(1);
      expect(done.body.clientId).to.be.a('string');
      expect((await readAtIdp(h, org, id)).body).to.include({ client_id: done.body.clientId });
    });
  });
});
