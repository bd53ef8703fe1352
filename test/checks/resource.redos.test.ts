import { expect } from 'chai';
import { redosTarget } from '../../checks/resource.redos.js';
import type { Operation } from '../../scanner/api.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { startRedosTarget } from '../fixtures/targets/redos-target.js';
import { scanToReport } from '../scanner/support/run-cli.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { expectResult } from './expect-result.js';

const ID = 'resource.redos';
const ISSUE = 'unrestricted_resource_consumption.redos';

describe('resource.redos', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with unrestricted_resource_consumption.redos (6.9) when e-mail validation backtracks, and stops at the first clear growth', async () => {
    target = await startRedosTarget({ backtracks: true });
    // A body input goes to 20 000 characters (half a second of backtracking here), so the proof holds on a loaded machine too.
    const outcome = await scanTarget(target.url('/users/lookup'), {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 6.9 } });
    const result = resultOf(outcome, ID);
    expect(result.attempts.length, 'at most 4 lengths × 2, each with one confirmation').to.be.at.most(12);
    expect(result.findings[0].detail).to.match(
      /body input "email": 10 chars: benign \d+ ms \(400\), attack \d+ ms \(400\)/,
    );
    expect(JSON.parse(result.attempts[0].request.body!)).to.deep.equal({ email: 'aaaaaaaaa!' });
    expect(JSON.parse(result.attempts[1].request.body!)).to.deep.equal({ email: ',,,,,,,,,,' });
  });

  it('passes, stopping early, when long inputs are refused before the pattern runs', async () => {
    target = await startRedosTarget({ backtracks: false });
    const outcome = await scanTarget(target.url('/users/lookup?email=alice%40example.com'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'passed', requests: 4 });
  });

  it('runs on a validation-only write (login) and finds the same pattern there', async () => {
    target = await startRedosTarget({ backtracks: true });
    const outcome = await scanTarget(target.url('/login'), {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password: 'x' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 6.9 } });
  });

  it('probes a registration only while it refuses every string: one that validates is probed, one that stores is left after one request', async () => {
    target = await startRedosTarget({ backtracks: true });
    const body = JSON.stringify({ email: 'alice@example.com' });
    const validating = await scanTarget(target.url('/register'), {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expectResult(validating, ID, { status: 'failed', issues: { [ISSUE]: 6.9 } });
    const storing = await scanTarget(target.url('/register?stores=any'), {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expectResult(storing, ID, { status: 'skipped', reason: /accepted an invalid email \(200\)/, requests: 1 });
  });

  it("never runs on an update in a curl scan, where the model cannot tell the object is a scan identity's own", async () => {
    target = await startRedosTarget({ backtracks: true });
    const outcome = await scanTarget(target.url('/account'), {
      checks: [ID],
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com' }),
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /an update/, requests: 0 });
  });

  it('aims at a declared pattern with a character it repeats and one it refuses, testing the pattern only on short strings', () => {
    const operation: Operation = {
      id: 'GET /codes',
      method: 'GET',
      url: 'http://127.0.0.1:9/codes?code=123',
      path: '/codes',
      headers: {},
      cookies: {},
      securitySchemes: [],
      inputs: [{ in: 'query', name: 'code', type: 'string', pattern: '^(\\d+)+$' }],
    };
    expect(redosTarget(operation)).to.deep.include({ atom: '0', suffix: '!', benign: ' ' });
  });
});

describe("resource.redos on an update of a scan identity's own record", function () {
  this.timeout(60_000);
  let demo: DemoTarget | undefined;
  afterEach(async () => demo?.close());

  const scanAccount = async (target: DemoTarget) => {
    const { report, ...run } = await scanToReport([
      'scan',
      'openapi',
      target.url('/openapi.json'),
      '--identity',
      `first=login:username=alice&password=${target.passwords.alice}`,
      '--scans',
      ID,
      '--include-operations',
      'PATCH /api/account',
      '--include-operations',
      'GET /api/account',
      '--include-operations',
      'POST /api/login',
      '--rate',
      '2000/s',
    ]);
    expect(run.code, run.stderr).to.equal(0);
    return report.reports.find((r) => r.operation?.id === 'PATCH /api/account' && r.id === ID)!.issues[0];
  };

  it('fails when the display name backtracks, probing only her own record and setting the name back', async () => {
    demo = await startDemoTarget();
    const issue = await scanAccount(demo);
    expect(issue.status).to.equal('failed');
    expect(issue.details?.[0]).to.match(/input "displayName".*on the first identity's own record/);
    expect(demo.demo.store.users.find((u) => u.username === 'alice')?.displayName).to.equal('Alice');
  });

  it('passes on the twin that caps the length and checks linearly, the name unchanged', async () => {
    demo = await startDemoTarget({ secure: true });
    expect((await scanAccount(demo)).status).to.equal('passed');
    expect(demo.demo.store.users.find((u) => u.username === 'alice')?.displayName).to.equal('Alice');
  });
});
