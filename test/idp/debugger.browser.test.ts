/**
 * The debugger page in a real browser (playwright-core + the chromium of test/support/browser.ts, headless,
 * JavaScript off): pick a client,
 * sign in on the IdP's login page, allow, and read the decoded tokens, userinfo and refresh result.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext } from 'playwright-core';
import { createIdp, type RunningIdp } from '../../idp/create-idp.js';
import { CHROMIUM_ARGS, findChromium } from '../support/browser.js';
import { suiteNotRun } from '../support/outside-npm.js';

const browser = await findChromium();

if (browser.missing) suiteNotRun('idp: /_debugger in a browser', browser.missing);
else
  describe('idp: /_debugger in a browser', function () {
    this.timeout(60_000);
    let idp: RunningIdp;
    let profile: string;
    let context: BrowserContext;

    before(async () => {
      idp = await createIdp({
        port: 0,
        redirectUris: ['http://127.0.0.1:9/callback'],
        clientId: 'web-app',
        enableTestingApi: true,
      });
      profile = await mkdtemp(join(tmpdir(), 'gatehouse-idp-debugger-chromium-'));
      context = await chromium.launchPersistentContext(profile, {
        executablePath: browser.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        javaScriptEnabled: false,
      });
    });

    after(async () => {
      await context?.close();
      if (profile) await rm(profile, { recursive: true, force: true });
      await idp?.close();
    });

    it('runs code + PKCE for the chosen client and shows the decoded ID token, userinfo and refresh', async () => {
      const page = await context.newPage();
      await page.goto(`${idp.url}/_debugger`);
      await page.selectOption('#client_id', 'web-app');
      await page.fill('#scope', 'openid email offline_access');
      await page.click('button[type=submit]');
      await page.click('button[name=login][value=alice]');
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await page.waitForURL(/\/_debugger\/callback/);
      const id = JSON.parse((await page.textContent('#id-token'))!) as { payload: Record<string, unknown> };
      expect(id.payload).to.include({ sub: 'alice', aud: 'web-app' });
      expect(JSON.parse((await page.textContent('#userinfo'))!)).to.include({ email: 'alice@example.com' });
      expect(JSON.parse((await page.textContent('#refresh'))!).id_token.payload).to.include({ sub: 'alice' });
    });
  });
