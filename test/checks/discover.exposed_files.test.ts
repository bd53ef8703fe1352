import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startSiteTarget } from '../fixtures/targets/site-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { discoverTarget } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.exposed_files';
const PATHS = 61;

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
    target = await startSiteTarget({ '/.env': { type: 'text/html', body: '<html>Welcome</html>' } }, { catchAll: true });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });
});
