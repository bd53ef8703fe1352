import { scanTarget } from '../support/scan.js';
import { hs256Token, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'discover.accept_unauthenticated';

describe('discover.accept_unauthenticated', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with discover.accept_unauthenticated_operation (0) without sending anything when no credential is given', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { 'discover.accept_unauthenticated_operation': 0 },
      requests: 0,
    });
  });

  it('passes when the operation is scanned with a credential', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID], headers: bearer(hs256Token('s')) });
    expectResult(outcome, ID, { status: 'passed', requests: 0 });
  });
});
