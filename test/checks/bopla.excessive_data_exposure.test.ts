import { expect } from 'chai';
import { resultOf } from '../support/scan.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';
import { scanPassively } from './passive-scan.js';

const ID = 'bopla.excessive_data_exposure';
const SENSITIVE = 'broken_object_property_level_authorization.sensitive_data_exposure';
const RECORDS = 'broken_object_property_level_authorization.undocumented_records';
const ACCOUNT_SCHEMA = {
  200: { type: 'object', properties: { id: { type: 'string' }, username: { type: 'string' } } },
};

describe('bopla.excessive_data_exposure', () => {
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  it("fails with sensitive_data_exposure (7.1) on the demo's user list (passwords, other users' API keys), sending nothing itself", async () => {
    demo = await startDemoTarget();
    const outcome = await scanPassively(demo.url('/api/users'), ID, { headers: bearer(demo.tokens.alice) });
    expectResult(outcome, ID, { status: 'failed', issues: { [SENSITIVE]: 7.1 } });
    const result = resultOf(outcome, ID);
    expect(result.findings[0].detail).to.match(
      /^password, secret or token in the answer to GET \/api\/users sent by test\.sender: password at \$\[0\]\.password; secret or token at \$\[0\]\.apiKey/,
    );
    expect(result.findings[0].detail, 'no value in the detail').to.not.include('alice-in-wonderland');
    expect(outcome.requestsSent, 'only the stand-in sender sent anything').to.equal(1);
    expect(
      result.attempts.map((a) => a.request.url),
      'the cited exchange is in the evidence',
    ).to.deep.equal([demo.url('/api/users')]);
  });

  it("passes on the secure twin's user list (ids and usernames only)", async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanPassively(demo.url('/api/users'), ID, { headers: bearer(demo.tokens.alice) });
    expectResult(outcome, ID, { status: 'passed', requests: 0 });
  });

  it('fails with undocumented_records (5.3) when an operation promising the caller lists every account', async () => {
    demo = await startDemoTarget();
    const outcome = await scanPassively(demo.url('/api/account'), ID, {
      headers: bearer(demo.tokens.alice),
      operation: { responseSchemas: ACCOUNT_SCHEMA },
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [RECORDS]: 5.3 } });
    expect(resultOf(outcome, ID).findings[0].detail).to.equal(
      '3 records where the description promises one object (200, GET /api/account sent by test.sender)',
    );
  });

  it('passes when the same operation answers the caller alone (the secure twin)', async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanPassively(demo.url('/api/account'), ID, {
      headers: bearer(demo.tokens.alice),
      operation: { responseSchemas: ACCOUNT_SCHEMA },
    });
    expectResult(outcome, ID, { status: 'passed' });
  });

  it('recognises password hashes, card numbers and national ids, and leaves a login its own token', async () => {
    target = await startTarget((req, res) => {
      if (req.url === '/login') return json(res, 200, { token: 'eyJhbGciOiJIUzI1NiJ9.e30.sig', expiresIn: 3600 });
      json(res, 200, {
        id: 7,
        hash: '$2b$12$C6UzMDM.H6dfI/f/IKcEeO5JvpC7Rh3N6v1m0Zq8JdG0lXWmF9m1W',
        payment: { card: '4111 1111 1111 1111' },
        ssn: '123-45-6789',
        orderNumber: '4111111111111111',
      });
    });
    const login = await scanPassively(target.url('/login'), ID);
    expectResult(login, ID, { status: 'passed' });
    const profile = await scanPassively(target.url('/profile'), ID);
    expectResult(profile, ID, { status: 'failed', issues: { [SENSITIVE]: 7.1 } });
    expect(resultOf(profile, ID).findings[0].detail).to.include(
      'password hash at $.hash; card number at $.payment.card; national id at $.ssn',
    );
  });

  it('is skipped when the scan received no 2xx JSON answer on the operation', async () => {
    target = await startTarget((_req, res) => json(res, 401, { error: 'no' }));
    const outcome = await scanPassively(target.url('/x'), ID);
    expectResult(outcome, ID, { status: 'skipped', reason: /no 2xx JSON answer/ });
  });
});
