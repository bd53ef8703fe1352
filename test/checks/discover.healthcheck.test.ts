import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startSiteTarget } from '../fixtures/targets/site-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { discoverTarget } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.healthcheck';
const PATHS = 25;

describe('discover.healthcheck', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.discoverable_healthcheck (0) for /healthz answering OK and /actuator/health answering UP', async () => {
    target = await startSiteTarget({
      '/healthz': { body: 'ok' },
      '/actuator/health': { type: 'application/json', body: '{"status":"UP"}' },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'failed', issues: { 'discover.discoverable_healthcheck': 0 }, requests: 1 + PATHS });
    expect(resultOf(outcome, ID).data?.urls).to.have.members([target.url('/healthz'), target.url('/actuator/health')]);
  });

  it('passes on a single-page app', async () => {
    target = await startSiteTarget({}, { catchAll: true });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });
});
