import { expect } from 'chai';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { createLogger } from '../../lib/logger.js';
import { createMemoryStore } from '../../idp/adapters/memory.js';
import type { IdpStore } from '../../idp/adapters/store.js';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { Browser } from './support/browser.js';
import { startBackchannelReceiver, type BackchannelReceiver } from './support/backchannel-receiver.js';
import { discover, headlessLogin, insecure } from './support/relying-party.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:9/bye';

/** A memory store that records when sessions are destroyed, so the order against back-channel calls shows. */
function recordingStore(events: string[]): IdpStore {
  const store = createMemoryStore();
  return {
    ...store,
    adapter(model) {
      const adapter = store.adapter(model);
      if (model !== 'Session') return adapter;
      return {
        ...adapter,
        destroy: async (id) => {
          events.push('session destroyed');
          return adapter.destroy(id);
        },
      };
    },
  };
}

async function registerBackchannelClient(idp: RunningIdp, receiver: BackchannelReceiver) {
  return oidc.dynamicClientRegistration(
    new URL(idp.issuer),
    {
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: [AFTER_LOGOUT],
      backchannel_logout_uri: receiver.uri,
      backchannel_logout_session_required: true,
      token_endpoint_auth_method: 'client_secret_post',
    },
    undefined,
    insecure,
  );
}

async function verifyLogoutToken(idp: RunningIdp, token: string, clientId: string) {
  const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${idp.issuer}/jwks`)), {
    issuer: idp.issuer,
    audience: clientId,
    typ: 'logout+jwt',
  });
  return payload;
}

describe('idp: RP-initiated and back-channel logout', () => {
  describe('with --skip-prompt', () => {
    const events: string[] = [];
    let idp: RunningIdp;
    let receiver: BackchannelReceiver;
    before(async () => {
      receiver = await startBackchannelReceiver();
      const store = recordingStore(events);
      idp = await createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        postLogoutRedirectUri: AFTER_LOGOUT,
        skipPrompt: true,
        enableRegistration: true,
        store,
      });
      after(() => store.close());
    });
    after(async () => {
      await idp.close();
      await receiver.close();
    });

    it('ends the session without a page and redirects to the registered post_logout_redirect_uri with state', async () => {
      const config = await discover(idp);
      const { tokens, browser } = await headlessLogin(config, idp, { scope: 'openid' });
      const logout = oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: AFTER_LOGOUT,
        state: 'st-42',
      });
      const landed = await browser.go(logout.href);
      expect(landed.url).to.equal(`${AFTER_LOGOUT}?state=st-42`);
      expect(browser.hasCookie('_session')).to.equal(false);

      // The session is gone: a silent authorization request now needs a login.
      const silent = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        prompt: 'none',
        state: 's',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const after = new URL((await browser.go(silent.href)).url);
      expect(after.searchParams.get('error')).to.equal('login_required');
    });

    it('refuses a post_logout_redirect_uri that is not registered for the client', async () => {
      const config = await discover(idp);
      const { tokens, browser } = await headlessLogin(config, idp, { scope: 'openid' });
      const logout = oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: 'https://evil.example/',
        state: 'x',
      });
      const page = await browser.go(logout.href);
      expect(page.status).to.equal(400);
      expect(page.html).to.contain('invalid_request').and.contain('post_logout_redirect_uri not registered');
    });

    it('sends a verifiable logout token to a loopback back-channel receiver before the session is destroyed', async () => {
      receiver.tokens.length = 0;
      events.length = 0;
      const registered = await registerBackchannelClient(idp, receiver);
      const clientId = registered.clientMetadata().client_id;
      const config = await discover(idp, clientId, registered.clientMetadata().client_secret);
      const { tokens, browser } = await headlessLogin(config, idp, { scope: 'openid', redirectUri: REDIRECT });
      const originalPush = receiver.tokens.push.bind(receiver.tokens);
      receiver.tokens.push = (...t: string[]) => {
        events.push('back-channel received');
        return originalPush(...t);
      };

      const landed = await browser.go(
        oidc.buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: AFTER_LOGOUT,
          state: 'bc',
        }).href,
      );
      expect(landed.url).to.equal(`${AFTER_LOGOUT}?state=bc`);
      expect(receiver.tokens).to.have.length(1);
      // (login itself destroys the pre-login session record when it rotates the id; logout's destroy is the last one)
      expect(events.slice(-2)).to.deep.equal(['back-channel received', 'session destroyed']);

      const payload = await verifyLogoutToken(idp, receiver.tokens[0], clientId);
      expect(payload.sub).to.equal('alice');
      expect(payload.sid).to.equal(tokens.claims()!.sid);
      expect(payload.events).to.deep.equal({ 'http://schemas.openid.net/event/backchannel-logout': {} });
      expect(payload).to.not.have.property('nonce');
    });

    it('still logs out when a back-channel receiver is down, and logs that without the token', async () => {
      const lines: string[] = [];
      const logger = createLogger({ level: 'warn' }, { write: (line: string) => lines.push(line) });
      const dead = await startBackchannelReceiver();
      await dead.close();
      const local = await createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        postLogoutRedirectUri: AFTER_LOGOUT,
        skipPrompt: true,
        enableRegistration: true,
        logger,
      });
      try {
        const registered = await registerBackchannelClient(local, dead);
        const meta = registered.clientMetadata();
        const config = await discover(local, meta.client_id, meta.client_secret);
        const { tokens, browser } = await headlessLogin(config, local, { scope: 'openid' });
        const landed = await browser.go(
          oidc.buildEndSessionUrl(config, {
            id_token_hint: tokens.id_token!,
            post_logout_redirect_uri: AFTER_LOGOUT,
            state: 'down',
          }).href,
        );
        expect(landed.url).to.equal(`${AFTER_LOGOUT}?state=down`);
        expect(lines.join(''))
          .to.contain('back-channel logout failed')
          .and.contain(meta.client_id)
          .and.not.contain(tokens.id_token!.split('.')[1]);
      } finally {
        await local.close();
      }
    });

    it('redirects straight to the post-logout URI when there is no session to end', async () => {
      const config = await discover(idp);
      const { tokens } = await headlessLogin(config, idp, { scope: 'openid' });
      const fresh = new Browser(new URL(idp.url).origin);
      const landed = await fresh.go(
        oidc.buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: AFTER_LOGOUT,
          state: 'none',
        }).href,
      );
      expect(landed.url).to.equal(`${AFTER_LOGOUT}?state=none`);
    });
  });

  describe('with the confirmation page', () => {
    let idp: RunningIdp;
    let receiver: BackchannelReceiver;
    before(async () => {
      receiver = await startBackchannelReceiver();
      idp = await createIdp({
        port: 0,
        redirectUris: [REDIRECT],
        postLogoutRedirectUri: AFTER_LOGOUT,
        enableRegistration: true,
      });
    });
    after(async () => {
      await idp.close();
      await receiver.close();
    });

    it('asks for confirmation, then notifies the back-channel and redirects with state', async () => {
      const registered = await registerBackchannelClient(idp, receiver);
      const clientId = registered.clientMetadata().client_id;
      const config = await discover(idp, clientId, registered.clientMetadata().client_secret);
      const browser = new Browser(new URL(idp.url).origin);
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        state: 's',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const consent = await browser.submit(await browser.go(url.href), /\/login$/, { login: 'alice' });
      const landed = await browser.submit(consent, /\/confirm$/);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(landed.url), {
        pkceCodeVerifier: verifier,
        expectedState: 's',
      });

      const confirm = await browser.go(
        oidc.buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: AFTER_LOGOUT,
          state: 'conf',
        }).href,
      );
      expect(confirm.status).to.equal(200);
      expect(confirm.html).to.contain('Sign out?');
      const done = await browser.submit(confirm, /\/session\/end\/confirm$/, { logout: 'yes' });
      expect(done.url).to.equal(`${AFTER_LOGOUT}?state=conf`);
      const payload = await verifyLogoutToken(idp, await receiver.next(), clientId);
      expect(payload.sub).to.equal('alice');
    });
  });
});
