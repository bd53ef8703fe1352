import { posix } from 'node:path';
import { expect } from 'chai';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'injection.path_traversal';
const fileOf = (url: string | undefined): string => new URL(url ?? '/', 'http://x').searchParams.get('file') ?? '';
const FAKE_PASSWD = 'root:x:0:0:root:/root:/bin/sh';

describe('injection.path_traversal', () => {
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  it('fails with injection.path_traversal (8.7) on the demo’s download, reading /etc/passwd twice and not a missing file', async () => {
    demo = await startDemoTarget();
    const outcome = await scanTarget(demo.url('/api/download?file=welcome.txt'), {
      checks: [ID],
      headers: bearer(demo.tokens.alice),
    });
    // baseline, ../ ×8 to etc/passwd, etc/./passwd, the missing etc/passwd-gatehouse-<n>
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.path_traversal': 8.7 }, requests: 4 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /^query file: `\.\.\/` sequences read \/etc\/passwd \(POSIX; its content is in the answer\), twice with two spellings \("(\.\.\/){8}etc\/passwd", "(\.\.\/){8}etc\/\.\/passwd"\); a missing file beside it \("(\.\.\/){8}etc\/passwd-gatehouse-\d+"\) did not show it$/,
    );
  });

  it('passes the demo’s secure twin', async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanTarget(demo.url('/api/download?file=welcome.txt'), {
      checks: [ID],
      headers: bearer(demo.tokens.alice),
    });
    // baseline, six reads, one missing file
    expectResult(outcome, ID, { status: 'passed', requests: 8 });
  });

  it('fails with injection.path_traversal_error (6.9) when only an error shows the resolved path outside the folder', async () => {
    target = await startTarget((req, res) => {
      const resolved = posix.resolve('/srv/files', fileOf(req.url));
      json(res, 404, { error: `ENOENT: no such file or directory, open '${resolved}'` });
    });
    const outcome = await scanTarget(target.url('/files?file=report.pdf'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.path_traversal_error': 6.9 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /the answer names the resolved path \/etc\/gatehouse-\d+\.txt/,
    );
  });

  it('passes a page that shows passwd-like text whatever file is asked for', async () => {
    target = await startTarget((_req, res) => json(res, 200, { sample: FAKE_PASSWD }));
    const outcome = await scanTarget(target.url('/files?file=report.pdf'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed' });
  });

  it('reads through a filter that strips ../ once (....//) and names it', async () => {
    target = await startTarget((req, res) => {
      const resolved = posix.resolve('/srv/files', fileOf(req.url).replace(/\.\.\//g, ''));
      json(res, 200, { content: resolved === '/etc/passwd' ? FAKE_PASSWD : 'no' });
    });
    const outcome = await scanTarget(target.url('/files?file=a.txt'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'injection.path_traversal': 8.7 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/^query file: an absolute path read/);
  });

  it('is not applicable without a file-name-like input', async () => {
    target = await startTarget((_req, res) => json(res, 200, {}));
    const outcome = await scanTarget(target.url('/products?category=books'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', reason: /no file-name-like input/, requests: 0 });
  });
});
