import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startSiteTarget } from '../fixtures/targets/site-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { discoverTarget } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.exposed_files';
const PATHS = 84; // the path list of checks/discover.exposed_files.ts, env-file variants and config files included

describe('discover.exposed_files', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.exposed_files (0) listing a served .env and .git/HEAD', async () => {
    target = await startSiteTarget({
      '/.env': { body: 'DATABASE_URL=postgres://u:p@db/app\nJWT_SECRET=abc\n' },
      '/.git/HEAD': { body: 'ref: refs/heads/main\n' },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'failed', issues: { 'discover.exposed_files': 0 }, requests: 1 + PATHS });
    expect(resultOf(outcome, ID).data?.urls).to.have.members([target.url('/.env'), target.url('/.git/HEAD')]);
  });

  it('passes when paths answer 200 with content that is not the file (a .env route serving HTML)', async () => {
    target = await startSiteTarget(
      { '/.env': { type: 'text/html', body: '<html>Welcome</html>' } },
      { catchAll: true },
    );
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });

  it('finds env files under their per-environment and backup names (.env.dev, .env.staging, .env.bak) and Spring properties, judged by their KEY=value content', async () => {
    target = await startSiteTarget({
      '/.env.dev': {
        body: '# dev settings\nAPP_KEY=base64:Zm9v\nDB_PASSWORD=hunter2\n\nexport STRIPE_KEY=sk_test_1\n',
      },
      '/.env.staging': { body: 'REDIS_URL=redis://cache:6379\n' },
      '/.env.bak': { body: 'JWT_SECRET=changeme\n' },
      '/application.properties': {
        body: 'spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=secret\n',
      },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'failed', issues: { 'discover.exposed_files': 0 }, requests: 1 + PATHS });
    expect(resultOf(outcome, ID).data?.urls).to.have.members(
      ['/.env.dev', '/.env.staging', '/.env.bak', '/application.properties'].map((p) => target!.url(p)),
    );
  });

  it('does not take for env files a 200 HTML page, a JSON answer or prose that mentions A=b, at any env-file name', async () => {
    target = await startSiteTarget({
      '/.env.dev': { type: 'text/html', body: '<!doctype html><html><body>APP_KEY=shown in docs</body></html>' },
      '/.env.production': { type: 'application/json', body: '{"error":"not here","HINT":"A=b"}' },
      '/.env.local': {
        body: 'This page explains that you should set DEBUG=false in production.\nIt is documentation.\nNothing else here.\n',
      },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });
});
