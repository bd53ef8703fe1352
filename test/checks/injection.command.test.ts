import { expect } from 'chai';
import { runShell } from '../../demo/vulnerable-api/mini-shell.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'injection.command';
const hostOf = (url: string | undefined): string => new URL(url ?? '/', 'http://x').searchParams.get('host') ?? '';

describe('injection.command', function () {
  this.timeout(30_000);
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  it('fails with injection.os_command (9.3) on the demo’s staff latency operation, naming the form and citing every exchange', async () => {
    demo = await startDemoTarget();
    const outcome = await scanTarget(demo.url('/api/admin/latency?host=example.com'), {
      checks: [ID],
      headers: bearer(demo.tokens.alice),
    });
    // baseline, the substitution probe, the form alone with a second marker, the control
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.os_command': 9.3 }, requests: 4 });
    const [finding] = resultOf(outcome, ID).findings;
    expect(finding.detail).to.match(
      /^query host: a command after \$\( \) substitution runs \(POSIX shell\): "echo (gh\d+x)" and "echo (gh\d+x)" printed their markers; the control ": gh\d+x" \(a command that prints nothing\) did not show its marker$/,
    );
    expect(finding.attemptIds, 'baseline, probe and control beside the confirming answer').to.have.length(3);
  });

  it('finds the separators when substitution is filtered, and says which one', async () => {
    target = await startTarget((req, res) => {
      const host = hostOf(req.url).replace(/\$\(|`|\n/g, '');
      json(res, 200, { output: runShell(`ping -c 1 ${host}`).output });
    });
    const outcome = await scanTarget(target.url('/ping?host=example.com'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.os_command': 9.3 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/^query host: a command after `;` runs \(POSIX shell\)/);
  });

  it('reaches a shell through a header the API reads', async () => {
    target = await startTarget((req, res) => {
      const region = String(req.headers['x-region'] ?? '');
      json(res, 200, { output: runShell(`nslookup "${region}"`).output });
    });
    const outcome = await scanTarget(target.url('/status'), { checks: [ID], headers: { 'X-Region': 'eu-west' } });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.os_command': 9.3 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/^header X-Region: a command after \$\( \) substitution/);
  });

  it('passes an API that echoes the input back: the payload reflected is not a command’s output', async () => {
    target = await startTarget((req, res) => json(res, 200, { host: hostOf(req.url), status: 'unknown host' }));
    const outcome = await scanTarget(target.url('/ping?host=example.com'), { checks: [ID] });
    // baseline, two output probes, the blind probe (a sleep and a callback: a loopback target can reach it)
    expectResult(outcome, ID, { status: 'passed', requests: 4 });
  });

  it('passes the secure twin, which runs no shell', async () => {
    target = await startTarget((req, res) => {
      const host = hostOf(req.url);
      if (!/^[A-Za-z0-9.-]+$/.test(host)) return json(res, 400, { error: 'host: a host name' });
      json(res, 200, { output: runShell(`ping -c 1 ${host}`).output });
    });
    const outcome = await scanTarget(target.url('/ping?host=example.com'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 4 });
  });

  it('fails with injection.os_command_blind (9.3) on the demo’s mirror check, proved only by the scan’s callback', async () => {
    demo = await startDemoTarget();
    const outcome = await scanTarget(demo.url('/api/mirrors/check'), {
      checks: [ID],
      method: 'POST',
      headers: { ...bearer(demo.tokens.alice), 'Content-Type': 'application/json' },
      body: JSON.stringify({ mirror: 'mirror.example.com' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.os_command_blind': 9.3 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /^body mirror: an injected command fetched the scanner's callback twice \(GET \/gatehouse-[0-9a-f]+\/cmd-gh\d+x(, User-Agent [^)]+)?\), with nothing in the answers; the same URL sent as a plain value was not fetched$/,
    );
  });

  it('passes a server that fetches any URL it is given: a callback without shell syntax is SSRF, not a shell', async () => {
    target = await startTarget(async (req, res) => {
      const url = /https?:\/\/[^\s;|&'"`$)#]+/.exec(decodeURIComponent(hostOf(req.url)))?.[0];
      json(res, 200, { status: 'queued' });
      if (url) await fetch(url).catch(() => undefined);
    });
    const outcome = await scanTarget(target.url('/ping?host=example.com'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed' });
  });

  it('fails with injection.os_command_blind when only the time shows it: sleep 2 and 4 take as long, sleep 0 does not', async () => {
    target = await startTarget(async (req, res) => {
      const run = runShell(`ping -c 1 ${hostOf(req.url)}`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(run.sleepSeconds, 5) * 1000));
      json(res, 200, { status: 'done' });
    });
    const outcome = await scanTarget(target.url('/ping?host=example.com'), { checks: [ID] });
    // baseline, two output probes, sleep 2 (with the callback), sleep 4, sleep 0
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.os_command_blind': 9.3 }, requests: 6 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /^query host: an injected sleep waits as long as asked .*: sleep 2 took \d+ ms, sleep 4 \d+ ms, sleep 0 \(the control\) \d+ ms, the baseline \d+ ms$/,
    );
  });

  it('never sends a PUT, a PATCH or a destructive operation', async () => {
    target = await startTarget((_req, res) => json(res, 200, {}));
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const outcome = await scanTarget(target.url('/hosts?host=x'), {
        checks: [ID],
        method,
        body: '{"host":"x"}',
        headers: { 'Content-Type': 'application/json' },
      });
      expectResult(outcome, ID, { status: 'skipped', requests: 0 });
    }
    expect(target.requests()).to.equal(0);
  });
});
