import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startSiteTarget } from '../fixtures/targets/site-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { discoverTarget } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.well-known';
const PATHS = 10;

describe('discover.well-known', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.discoverable_well_known (0) for OpenID discovery, a JWKS and security.txt', async () => {
    target = await startSiteTarget({
      '/.well-known/openid-configuration': { type: 'application/json', body: '{"issuer":"https://id.example"}' },
      '/.well-known/jwks.json': { type: 'application/json', body: '{"keys":[]}' },
      '/.well-known/security.txt': { body: 'Contact: mailto:security@example.com\nExpires: 2030-01-01T00:00:00Z\n' },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'discover.discoverable_well_known': 0 },
      requests: 1 + PATHS,
    });
    expect(resultOf(outcome, ID).data?.urls).to.have.lengthOf(3);
  });

  it('passes when well-known paths answer 200 with a page instead of their format', async () => {
    target = await startSiteTarget(
      { '/.well-known/jwks.json': { type: 'text/html', body: '<html>login</html>' } },
      { catchAll: true },
    );
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });
});
