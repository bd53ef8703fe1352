/**
 * `--report-format html` in a real browser (playwright-core + the chromium of test/support/browser.ts, headless), opened
 * from a file as an attached build artifact would be: every finding visible under its severity with its curl command,
 * the suppressed one in its own section, and no request for anything but the file itself.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { dump } from 'js-yaml';
import { chromium, type BrowserContext } from 'playwright-core';
import type { IssueReport } from '../../../scanner/report/report-types.js';
import { CHROMIUM_ARGS, findChromium } from '../../support/browser.js';
import { suiteNotRun } from '../../support/outside-npm.js';
import { runCli, scanToReport, startTarget, type Target } from '../support/run-cli.js';

const browser = await findChromium();

if (browser.missing) suiteNotRun('scanner: the HTML report in a browser', browser.missing);
else
  describe('scanner: the HTML report in a browser', function () {
    this.timeout(60_000);
    let target: Target;
    let dir: string;
    let context: BrowserContext;
    let failed: IssueReport[];
    let suppressed: IssueReport;
    const requested: string[] = [];

    before(async () => {
      target = await startTarget();
      dir = await mkdtemp(join(tmpdir(), 'scanner-html-report-'));
      const scan = ['scan', 'curl', `${target.url}/ok`, '-H', 'Authorization: Bearer opaque-secret-7f3a'];
      scan.push('--scans', 'misconfiguration.http_headers');
      failed = (await scanToReport(scan)).report.reports.flatMap((r) => r.issues.filter((i) => i.status === 'failed'));
      suppressed = failed[failed.length - 1];
      await writeFile(
        join(dir, 'accepted.yml'),
        dump([{ fingerprint: suppressed.fingerprint, reason: 'served behind a CDN that adds it' }]),
      );
      const file = join(dir, 'report.html');
      const run = await runCli([
        ...scan,
        ...['--suppressions', join(dir, 'accepted.yml'), '--no-progress'],
        ...['--report-format', 'html', '--report-file', file],
      ]);
      expect(run.code, run.stderr).to.equal(0);
      context = await chromium.launchPersistentContext(join(dir, 'profile'), {
        executablePath: browser.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
      });
      context.on('request', (request) => requested.push(request.url()));
    });

    after(async () => {
      await context?.close();
      await target?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('shows every finding under its severity, with its curl command, and the suppressed one apart', async () => {
      const page = await context.newPage();
      const file = pathToFileURL(join(dir, 'report.html')).href;
      await page.goto(file);
      expect(failed.length).to.be.greaterThan(1);
      for (const issue of failed) {
        const finding = page.locator(`#f-${issue.fingerprint}`);
        expect(await finding.isVisible(), issue.name).to.equal(true);
        expect(await finding.innerText())
          .to.include(issue.name)
          .and.include(issue.evidence!.curl!);
        const section = await finding.evaluate((el) => el.closest('section')?.id);
        if (issue === suppressed) {
          expect(section).to.equal('suppressed');
          expect(await finding.innerText()).to.include('served behind a CDN that adds it');
        } else expect(section).to.equal(issue.cvss.score === 0 ? 'info' : 'low');
      }
      expect(await page.content()).to.not.include('opaque-secret-7f3a');
      expect(requested).to.deep.equal([file]);
    });
  });
