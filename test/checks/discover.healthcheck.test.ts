import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startSiteTarget } from '../fixtures/targets/site-target.js';
import { startTarget, type Target } from '../fixtures/targets/start-target.js';
import { discoverTarget } from './scan-as.js';
import { expectResult } from './expect-result.js';

const ID = 'discover.healthcheck';
const PATHS = 27; // 25 before health/started and health/startup were added

describe('discover.healthcheck', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.discoverable_healthcheck (0) for /healthz answering OK and /actuator/health answering UP', async () => {
    target = await startSiteTarget({
      '/healthz': { body: 'ok' },
      '/actuator/health': { type: 'application/json', body: '{"status":"UP"}' },
    });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'discover.discoverable_healthcheck': 0 },
      requests: 1 + PATHS,
    });
    expect(resultOf(outcome, ID).data?.urls).to.have.members([target.url('/healthz'), target.url('/actuator/health')]);
  });

  it('passes on a single-page app', async () => {
    target = await startSiteTarget({}, { catchAll: true });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });

  it('finds liveness and readiness probes that answer 200 with an empty body (/health/live, /health/ready)', async () => {
    target = await startSiteTarget({ '/health/live': { body: '' }, '/health/ready': { body: '' } });
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'discover.discoverable_healthcheck': 0 },
      requests: 1 + PATHS,
    });
    expect(resultOf(outcome, ID).data?.urls).to.have.members([target.url('/health/live'), target.url('/health/ready')]);
  });

  it('passes on a server that answers 200 with an empty body on every path (the control request is the same)', async () => {
    target = await startTarget((_req, res) => void res.writeHead(200).end());
    const outcome = await discoverTarget(target.url('/'), [ID]);
    expectResult(outcome, ID, { status: 'passed', requests: 1 + PATHS });
  });
});
