import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.server_signature';

describe('discover.server_signature', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.fingerprint (0) and publishes server, framework and language with versions', async () => {
    target = await startTarget((_req, res) => {
      res
        .writeHead(200, { server: 'nginx/1.25.3', 'x-powered-by': 'Express', 'content-type': 'application/json' })
        .end('{}');
    });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'failed', issues: { 'discover.fingerprint': 0 }, requests: 1 });
    const fingerprint = resultOf(outcome, ID).data?.fingerprint as Record<string, { name: string }[]>;
    expect(fingerprint.servers).to.deep.equal([{ name: 'Nginx:1.25.3' }]);
    expect(fingerprint.frameworks).to.deep.equal([{ name: 'Express' }]);
    expect(fingerprint.languages).to.deep.equal([{ name: 'Node.js' }]);
  });

  it('recognises Apache with its version and the OS it names', async () => {
    target = await startTarget((_req, res) => {
      res.writeHead(200, { server: 'Apache/2.4.29 (Ubuntu)' }).end();
    });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    const fingerprint = resultOf(outcome, ID).data?.fingerprint as Record<string, { name: string }[]>;
    expect(fingerprint.servers).to.deep.equal([{ name: 'Apache HTTP Server:2.4.29' }]);
    expect(fingerprint.os).to.deep.equal([{ name: 'Ubuntu' }]);
  });

  it('passes with one request when no header names a technology', async () => {
    target = await startTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 1 });
  });
});
