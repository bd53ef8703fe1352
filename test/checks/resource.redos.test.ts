import { expect } from 'chai';
import { redosTarget } from '../../checks/resource.redos.js';
import type { Operation } from '../../scanner/api.js';
import { startRedosTarget } from '../fixtures/targets/redos-target.js';
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

  it('never runs on an update, which would write the probe onto an existing object', async () => {
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
