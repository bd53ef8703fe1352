/**
 * The review console in a real browser (playwright-core + the chromium of test/support/browser.ts, headless): sign
 * in through the IdP's login page, approve one registration from the queue, request changes on another with a
 * reason, and find both in the audit history, all with JavaScript turned off. Writes the queue screenshot to a temp
 * dir, or to docs/review-queue.png with UPDATE_SCREENSHOTS=1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { fromRoot } from '../../../../lib/project-root.js';
import type { Registration } from '../../../../server/components/registrations/registrations.model.js';
import { CHROMIUM_ARGS, findChromium } from '../../../support/browser.js';
import { suiteNotRun } from '../../../support/outside-npm.js';
import { REVIEWER, startConsole, type ConsoleHarness } from './console-harness.js';

const browser = await findChromium();

if (browser.missing) suiteNotRun('review console in a browser', browser.missing);
else
  describe('review console in a browser', function () {
    // Starting chromium on a busy 2-core machine can take a while; nothing here asserts a duration.
    this.timeout(60_000);

    let h: ConsoleHarness;
    let profile: string;
    let context: BrowserContext;
    let page: Page;
    let approveMe: Registration;
    let sendBack: Registration;
    let own: Registration;

    before(async () => {
      h = await startConsole();
      approveMe = await h.pending('Payments dashboard');
      sendBack = await h.pending('Invoice exporter');
      own = await h.pending('Rita’s test client', REVIEWER.sub);
      await h.withChangeSet('Merchant portal', {
        redirectUris: ['https://portal.example.com/cb', 'https://portal.example.com/cb2'],
        scopes: ['openid', 'profile', 'email'],
      });
      profile = await mkdtemp(join(tmpdir(), 'gatehouse-console-chromium-'));
      context = await chromium.launchPersistentContext(profile, {
        executablePath: browser.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1440, height: 720 },
        // Usable without JavaScript: the whole walk (the IdP's pages included) runs with scripts off.
        javaScriptEnabled: false,
      });
      page = await context.newPage();
    });

    after(async () => {
      await context?.close();
      if (profile) await rm(profile, { recursive: true, force: true });
      await h?.close();
    });

    it('signs a reviewer in through the identity provider’s login and consent pages', async () => {
      await page.goto(`${h.consoleUrl}/`);
      expect(page.url()).to.match(new RegExp(`^${h.idp.url}/interaction/`));
      await page.click(`button[name="login"][value="${REVIEWER.sub}"]`);
      await page.click('button:text("Allow")');
      await page.waitForURL(`${h.consoleUrl}/`);
      expect(await page.textContent('h1')).to.contain('Review queue');
      expect(await page.textContent('header .who')).to.contain('Rita Reviewer');
    });

    it('keeps the session in an HttpOnly, SameSite=Lax cookie', async () => {
      const cookies = await context.cookies(h.consoleUrl);
      const session = cookies.find((c) => c.name === 'gatehouse_console');
      expect(session, 'session cookie').to.not.equal(undefined);
      expect(session?.httpOnly).to.equal(true);
      expect(session?.sameSite).to.equal('Lax');
    });

    it('lists everything waiting, oldest first, and writes the screenshot of the queue', async () => {
      const names = await page.locator('tbody tr td:first-child a').allTextContents();
      expect(names).to.deep.equal(['Payments dashboard', 'Invoice exporter', 'Rita’s test client', 'Merchant portal']);
      const dir = process.env.UPDATE_SCREENSHOTS === '1' ? fromRoot('docs') : profile;
      await page.screenshot({ path: join(dir, 'review-queue.png'), fullPage: true });
    });

    it('shows a change set as a diff against the live config', async () => {
      await page.click('a:text("Merchant portal")');
      const changed = await page.locator('table.diff tr.changed td.key').allTextContents();
      expect(changed).to.deep.equal(['redirectUris', 'scopes']);
      expect(await page.locator('table.diff tr.changed ins').first().textContent()).to.contain(
        'https://portal.example.com/cb2',
      );
      await page.goto(`${h.consoleUrl}/`);
    });

    it('offers no decision on the reviewer’s own submission and says why', async () => {
      await page.click(`a[href$="${own.id}"]`);
      expect(await page.textContent('[role="note"]')).to.contain('Separation of duties');
      expect(await page.locator('form textarea[name="reason"]').count()).to.equal(0);
      await page.goto(`${h.consoleUrl}/`);
    });

    it('approves a pending registration from the queue with a reason', async () => {
      await page.click(`a[href$="${approveMe.id}"]`);
      await page.fill('#reason-approve', 'Redirect URIs and scopes match the payments team’s request.');
      await page.click('button:text-is("Approve")');
      await page.waitForURL(`${h.consoleUrl}/`);
      expect(await page.textContent('[role="status"]')).to.contain('now active');
      expect((await h.store.registrations.get(h.organizationId, approveMe.id))?.status).to.equal('active');
    });

    it('requests changes on another registration with a reason', async () => {
      await page.click(`a[href$="${sendBack.id}"]`);
      await page.fill('#reason-request_changes', 'Use private_key_jwt instead of a client secret.');
      await page.click('button:text-is("Request changes")');
      await page.waitForURL(`${h.consoleUrl}/`);
      expect(await page.textContent('[role="status"]')).to.contain('now changes requested');
      const remaining = await page.locator('tbody tr td:first-child a').allTextContents();
      expect(remaining).to.deep.equal(['Rita’s test client', 'Merchant portal']);
    });

    it('shows both decisions with their reasons in the audit history', async () => {
      await page.click('nav a:text("Audit history")');
      const rows = await page.locator('table.audit tbody tr').allInnerTexts();
      expect(rows).to.have.length(2);
      expect(rows[0])
        .to.contain('approve')
        .and.contain(REVIEWER.sub)
        .and.contain(approveMe.id)
        .and.contain('match the payments team');
      expect(rows[1]).to.contain('request_changes').and.contain(sendBack.id).and.contain('private_key_jwt');
    });
  });
