/**
 * The console's forms and guards over plain HTTP (the IdP signs in without prompts): sign-in and its scope gate,
 * CSRF, required reasons, separation of duties, API Access and sign-out.
 */
import { expect } from 'chai';
import { REVIEWER, startConsole, type ConsoleHarness } from './console-harness.js';
import { CookieJar, csrfOf, follow } from './sign-in-without-browser.js';

describe('review console forms', () => {
  let h: ConsoleHarness;
  let jar: CookieJar;
  let csrf: string;

  before(async () => {
    h = await startConsole({ skipPrompt: true });
    jar = new CookieJar();
    const page = await follow(`${h.consoleUrl}/audit`, jar);
    expect(page.status).to.equal(200);
    csrf = csrfOf(await page.text());
  });

  after(async () => {
    await h?.close();
  });

  function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${h.consoleUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(h.consoleUrl).origin,
        ...headers,
      },
      body: new URLSearchParams(form),
    });
  }

  const decisions = (id: string) => `/organizations/${h.organizationId}/registrations/${id}/decisions`;

  describe('sign-in', () => {
    it('sends a visitor without a session to sign in, remembering the page', async () => {
      const response = await fetch(`${h.consoleUrl}/audit?organizationId=x`, { redirect: 'manual' });
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal(
        `/console/login?returnTo=${encodeURIComponent('/console/audit?organizationId=x')}`,
      );
    });

    it('brought the signed-in reviewer back to that page with an HttpOnly, SameSite=Lax session cookie', () => {
      const session = jar.setCookies.filter((line) => line.startsWith('gatehouse_console=')).pop() ?? '';
      expect(session)
        .to.match(/; HttpOnly/)
        .and.match(/; SameSite=Lax/)
        .and.match(/; Path=\/console/);
    });

    it('opens no session for a user whose token carries neither gatehouse:review nor gatehouse:admin', async () => {
      const other = await startConsole({
        skipPrompt: true,
        idpScopes: ['openid', 'offline_access', 'profile', 'email', 'registrations:read'],
      });
      try {
        const outsider = new CookieJar();
        const response = await follow(`${other.consoleUrl}/`, outsider);
        expect(response.status).to.equal(403);
        expect(await response.text()).to.contain('neither the gatehouse:review nor the gatehouse:admin scope');
        const again = await fetch(`${other.consoleUrl}/`, {
          redirect: 'manual',
          headers: { cookie: outsider.header() },
        });
        expect(again.status).to.equal(303);
        expect(again.headers.get('location')).to.match(/\/console\/login/);
      } finally {
        await other.close();
      }
    });

    it('answers 503 with a retry link while the identity provider is down', async () => {
      const other = await startConsole({ skipPrompt: true });
      try {
        await other.idp.close();
        const down = await fetch(`${other.consoleUrl}/login`, { redirect: 'manual' });
        expect(down.status).to.equal(503);
        expect(await down.text())
          .to.contain('cannot be reached')
          .and.contain('/console/login');
      } finally {
        await other.close();
      }
    });

    it('sends a signed-in reviewer who opens /login straight back, keeping the session', async () => {
      const response = await fetch(`${h.consoleUrl}/login?returnTo=${encodeURIComponent('/console/audit')}`, {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      });
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal('/console/audit');
      expect(response.headers.getSetCookie()).to.deep.equal([]);
    });

    it('never redirects back outside the console after sign-in', async () => {
      const outsider = new CookieJar();
      const response = await fetch(`${h.consoleUrl}/login?returnTo=${encodeURIComponent('//evil.example/x')}`, {
        redirect: 'manual',
      });
      outsider.take(response);
      const landed = await follow(new URL(response.headers.get('location') ?? '', h.consoleUrl).href, outsider);
      expect(landed.url).to.equal(`${h.consoleUrl}`);
    });
  });

  describe('decisions', () => {
    it('refuses a decision without the CSRF token and changes nothing', async () => {
      const registration = await h.pending('No token');
      const response = await post(decisions(registration.id), { action: 'approve', reason: 'looks fine' });
      expect(response.status).to.equal(403);
      expect((await h.store.registrations.get(h.organizationId, registration.id))?.status).to.equal('pending_review');
    });

    it('refuses a decision posted from another origin, even with the token', async () => {
      const registration = await h.pending('Cross-site');
      const response = await post(
        decisions(registration.id),
        { _csrf: csrf, action: 'approve', reason: 'x' },
        { origin: 'https://evil.example' },
      );
      expect(response.status).to.equal(403);
      expect((await h.store.registrations.get(h.organizationId, registration.id))?.status).to.equal('pending_review');
    });

    it('refuses a decision without a reason with 422 and a link back to the registration', async () => {
      const registration = await h.pending('No reason');
      const response = await post(decisions(registration.id), { _csrf: csrf, action: 'approve', reason: '   ' });
      expect(response.status).to.equal(422);
      const html = await response.text();
      expect(html).to.contain('A reason is required').and.contain(`/registrations/${registration.id}"`);
      expect((await h.store.registrations.get(h.organizationId, registration.id))?.status).to.equal('pending_review');
    });

    it('refuses every decision on the reviewer’s own submission (separation of duties)', async () => {
      const registration = await h.pending('Own work', REVIEWER.sub);
      for (const action of ['approve', 'reject', 'request_changes']) {
        const response = await post(decisions(registration.id), { _csrf: csrf, action, reason: 'mine' });
        expect(response.status, action).to.equal(409);
      }
      expect((await h.store.registrations.get(h.organizationId, registration.id))?.status).to.equal('pending_review');
    });

    it('refuses a decision on a registration that changed since the page was shown (412)', async () => {
      const registration = await h.pending('Moved on');
      const response = await post(decisions(registration.id), {
        _csrf: csrf,
        action: 'reject',
        reason: 'no',
        revision: String(registration.revision - 1),
      });
      expect(response.status).to.equal(412);
    });

    it('answers 413 to an oversized form without deciding anything', async () => {
      const registration = await h.pending('Too long');
      const response = await post(decisions(registration.id), {
        _csrf: csrf,
        action: 'approve',
        reason: 'x'.repeat(20_000),
      });
      expect(response.status).to.equal(413);
      expect((await h.store.registrations.get(h.organizationId, registration.id))?.status).to.equal('pending_review');
    });

    it('approves a change set with a reason and applies it to the live config', async () => {
      const registration = await h.withChangeSet('Change me', { scopes: ['openid', 'email'] });
      const path = `/organizations/${h.organizationId}/registrations/${registration.id}/change-sets/${registration.pendingChangeSetId}/decisions`;
      const response = await post(path, { _csrf: csrf, action: 'approve', reason: 'email scope agreed with privacy' });
      expect(response.status).to.equal(303);
      const after = await h.store.registrations.get(h.organizationId, registration.id);
      expect(after?.config.scopes).to.deep.equal(['openid', 'email']);
      expect(after?.pendingChangeSetId).to.equal(undefined);
    });
  });

  describe('provisioning', () => {
    it('shows on the registration page that a provisioning step failed, with its error', async () => {
      const registration = await h.withChangeSet('Provisioned late', { scopes: ['openid'] });
      const page = () =>
        fetch(`${h.consoleUrl}/organizations/${h.organizationId}/registrations/${registration.id}`, {
          headers: { cookie: jar.header() },
        }).then((r) => r.text());
      expect(await page()).to.not.contain('Provisioning at the authorization server');
      const step = await h.store.provisioning.enqueue({
        organizationId: h.organizationId,
        registrationId: registration.id,
        kind: 'register',
        revision: registration.revision,
        now: new Date(),
      });
      expect(await page())
        .to.contain('Provisioning at the authorization server')
        .and.contain('pending');
      // What the worker does after its last attempt: claim the step, then settle it as failed.
      expect(
        (await h.store.provisioning.claimDue(new Date(Date.now() + 1000), new Date(Date.now() + 60_000)))?.id,
      ).to.equal(step.id);
      await h.store.provisioning.settle(step.id, {
        status: 'failed',
        now: new Date(),
        error: 'connect ECONNREFUSED 127.0.0.1:8484',
      });
      const html = await page();
      expect(html).to.contain('failed for good').and.contain('connect ECONNREFUSED 127.0.0.1:8484');
    });
  });

  describe('internal comments', () => {
    it('adds a comment to a registration and shows it on its page, escaped', async () => {
      const registration = await h.pending('Commented');
      const path = `/organizations/${h.organizationId}/registrations/${registration.id}`;
      const added = await post(`${path}/comments`, {
        _csrf: csrf,
        body: 'Asked the team about <script>-free redirect URIs.',
      });
      expect(added.status).to.equal(303);
      expect(added.headers.get('location')).to.equal(`/console${path}`);
      const page = await (await fetch(`${h.consoleUrl}${path}`, { headers: { cookie: jar.header() } })).text();
      expect(page).to.contain('Asked the team about &lt;script&gt;-free redirect URIs.').and.not.contain('<script>');
    });
  });

  describe('API Access', () => {
    it('grants access as the default, then revokes it, each in the audit history', async () => {
      const granted = await post('/access/grant', {
        _csrf: csrf,
        subject: 'svc-billing',
        organizationId: h.organizationId,
        isDefault: 'true',
      });
      expect(granted.status).to.equal(303);
      expect(granted.headers.get('location')).to.equal('/console/access?subject=svc-billing');
      expect((await h.store.grants.defaultFor('svc-billing'))?.organizationId).to.equal(h.organizationId);
      const page = await (
        await fetch(`${h.consoleUrl}/access?subject=svc-billing`, { headers: { cookie: jar.header() } })
      ).text();
      expect(page).to.contain(h.organizationId).and.contain('default');
      const revoked = await post('/access/revoke', {
        _csrf: csrf,
        subject: 'svc-billing',
        organizationId: h.organizationId,
      });
      expect(revoked.status).to.equal(303);
      expect(await h.store.grants.find('svc-billing', h.organizationId)).to.equal(null);
      const audit = await (await fetch(`${h.consoleUrl}/audit`, { headers: { cookie: jar.header() } })).text();
      expect(audit).to.contain('grant_access').and.contain('revoke_access').and.contain('svc-billing');
    });

    it('grants access in a role and changes the role, audited; an unknown role is refused', async () => {
      const form = { _csrf: csrf, subject: 'svc-viewer', organizationId: h.organizationId };
      expect((await post('/access/grant', { ...form, role: 'viewer' })).status).to.equal(303);
      expect((await h.store.grants.find('svc-viewer', h.organizationId))?.role).to.equal('viewer');
      const page = await (
        await fetch(`${h.consoleUrl}/access?subject=svc-viewer`, { headers: { cookie: jar.header() } })
      ).text();
      expect(page).to.contain('<option value="viewer" selected>').and.contain('/access/role');
      expect((await post('/access/role', { ...form, role: 'developer' })).status).to.equal(303);
      expect((await h.store.grants.find('svc-viewer', h.organizationId))?.role).to.equal('developer');
      expect((await post('/access/role', { ...form, role: 'admin' })).status).to.equal(422);
      expect((await h.store.grants.find('svc-viewer', h.organizationId))?.role).to.equal('developer');
      const audit = await (await fetch(`${h.consoleUrl}/audit`, { headers: { cookie: jar.header() } })).text();
      expect(audit).to.contain('granted:viewer').and.contain('granted:developer');
    });
  });

  describe('a reviewer without gatehouse:admin', () => {
    let r: ConsoleHarness;
    let reviewerJar: CookieJar;
    let reviewerCsrf: string;

    before(async () => {
      r = await startConsole({
        skipPrompt: true,
        idpScopes: ['openid', 'offline_access', 'profile', 'gatehouse:review'],
      });
      reviewerJar = new CookieJar();
      reviewerCsrf = csrfOf(await (await follow(`${r.consoleUrl}/`, reviewerJar)).text());
    });

    after(async () => {
      await r?.close();
    });

    const send = (path: string, form: Record<string, string>) =>
      fetch(`${r.consoleUrl}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: reviewerJar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: reviewerCsrf, ...form }),
      });

    it('approves submissions', async () => {
      const registration = await r.pending('Reviewer approves');
      const response = await send(`/organizations/${r.organizationId}/registrations/${registration.id}/decisions`, {
        action: 'approve',
        reason: 'fine',
      });
      expect(response.status).to.equal(303);
      expect((await r.store.registrations.get(r.organizationId, registration.id))?.status).to.equal('active');
    });

    it('may not suspend, and is not offered to', async () => {
      const registration = await r.withChangeSet('Reviewer suspends', { scopes: ['openid'] });
      const page = await (
        await fetch(`${r.consoleUrl}/organizations/${r.organizationId}/registrations/${registration.id}`, {
          headers: { cookie: reviewerJar.header() },
        })
      ).text();
      expect(page).to.not.contain('value="suspend"');
      const response = await send(`/organizations/${r.organizationId}/registrations/${registration.id}/decisions`, {
        action: 'suspend',
        reason: 'x',
      });
      expect(response.status).to.equal(403);
      expect((await r.store.registrations.get(r.organizationId, registration.id))?.status).to.equal('active');
    });

    it('sees API Access but may not change it', async () => {
      const page = await (
        await fetch(`${r.consoleUrl}/access?subject=alice`, { headers: { cookie: reviewerJar.header() } })
      ).text();
      expect(page).to.contain('needs the <code>gatehouse:admin</code> scope').and.not.contain('/access/grant');
      const response = await send('/access/grant', { subject: 'mallory', organizationId: r.organizationId });
      expect(response.status).to.equal(403);
      expect(await r.store.grants.find('mallory', r.organizationId)).to.equal(null);
    });
  });

  describe('sign-out', () => {
    it('ends the session: the old cookie no longer opens pages', async () => {
      const before = jar.header();
      const response = await post('/logout', { _csrf: csrf });
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal('/console/signed-out');
      const again = await fetch(`${h.consoleUrl}/`, { redirect: 'manual', headers: { cookie: before } });
      expect(again.status).to.equal(303);
    });
  });
});
