import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { ORDER_ID, startObjectsTarget, TOKENS } from '../fixtures/targets/objects-target.js';
import { startProfilesTarget, USER_IDS, type ProfilesTarget } from '../fixtures/targets/profiles-target.js';
import { bearerOf, json, startTarget, type Target } from '../fixtures/targets/start-target.js';
import type { ScanOutcome } from '../../scanner/scan-result.js';
import { buildReport } from '../../scanner/report/build-report.js';
import { assertValidReport } from '../../scanner/report/validate-report.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'bola.modify';
const ISSUE = 'broken_object_level_authorization.modify';
const asBob = { asOther: { name: 'Authorization', value: `Bearer ${TOKENS.bob}` } };
const patch = JSON.stringify({ quantity: 200 });
const aliceJson = { ...bearer(TOKENS.alice), 'Content-Type': 'application/json' };

/** The steps a finding cites as its proof, in order, as "METHOD path → status: role". */
function proofOf(outcome: ScanOutcome): string[] {
  const result = resultOf(outcome, ID);
  return (result.findings[0]?.steps ?? []).map(({ attemptId, role }) => {
    const attempt = result.attempts.find((a) => a.id === attemptId)!;
    return `${attempt.request.method} ${new URL(attempt.request.url).pathname} → ${attempt.response?.status}: ${role}`;
  });
}

describe('bola.modify', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it("fails with broken_object_level_authorization.modify (7.1) when bob's PATCH of alice's order shows on alice's read-back, then restores it", async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      method: 'PATCH',
      body: patch,
      headers: aliceJson,
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 4 });
    const path = `/orders/${ORDER_ID}`;
    expect(proofOf(outcome)).to.deep.equal([
      `PATCH ${path} → 200: PATCH by the --as-other identity`,
      `GET ${path} → 200: read-back by the owner (the first identity)`,
      `PATCH ${path} → 200: restore by the owner (PATCH with the earlier "quantity")`,
    ]);
    expect(resultOf(outcome, ID).findings[0].detail).to.match(
      /changed "quantity" .* owner's read-back shows it .*restored "quantity" to its earlier value/,
    );
    // The restore left the order as alice's own write (auth.baseline's) had made it.
    const order = await fetch(target.url(path), { headers: bearer(TOKENS.alice) }).then(
      (r) => r.json() as Promise<{ quantity: number }>,
    );
    expect(order.quantity).to.equal(200);
  });

  it("passes with two requests when bob's PATCH gets 404", async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      method: 'PATCH',
      body: patch,
      headers: aliceJson,
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'passed', requests: 2 });
  });

  describe('on a PUT of a profile the path names (the twins differ only in whose profile the server writes)', () => {
    let profiles: ProfilesTarget | undefined;
    afterEach(async () => profiles?.close());
    const put = (t: ProfilesTarget): Promise<ScanOutcome> =>
      scanTarget(t.url(`/users/${USER_IDS.alice}/profile`), {
        checks: [ID],
        method: 'PUT',
        body: JSON.stringify({ displayName: 'Alice A.', city: 'Lyon' }),
        headers: aliceJson,
        options: asBob,
      });

    it("passes when bob's accepted PUT changes only bob's own profile: alice's read-back is unchanged", async () => {
      profiles = await startProfilesTarget({ writes: 'caller' });
      const outcome = await put(profiles);
      expectResult(outcome, ID, { status: 'passed', requests: 3 });
      expect(profiles.profiles()[USER_IDS.alice].displayName).to.equal('Alice A.');
      expect(profiles.profiles()[USER_IDS.bob].displayName, "bob's own profile took the write").to.match(/^gatehouse-/);
    });

    it("fails when bob's PUT changes alice's profile, citing bob's write, alice's read-back and the restore", async () => {
      profiles = await startProfilesTarget({ writes: 'path' });
      const outcome = await put(profiles);
      expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 4 });
      const path = `/users/${USER_IDS.alice}/profile`;
      expect(proofOf(outcome)).to.deep.equal([
        `PUT ${path} → 200: PUT by the --as-other identity`,
        `GET ${path} → 200: read-back by the owner (the first identity)`,
        `PUT ${path} → 200: restore by the owner (PUT with the earlier "displayName")`,
      ]);
      // Who sent them, as the target saw it: bob writes, alice reads back, alice restores.
      expect(profiles.calls().slice(-3)).to.deep.equal([
        `PUT ${path} by bob`,
        `GET ${path} by alice`,
        `PUT ${path} by alice`,
      ]);
      const readBack = resultOf(outcome, ID).attempts.find(
        (a) => a.id === resultOf(outcome, ID).findings[0].steps![1].attemptId,
      )!;
      expect(readBack.response!.body).to.match(/"displayName":"gatehouse-[0-9a-f]{12}"/);
      expect(profiles.profiles()[USER_IDS.alice].displayName, 'restored').to.equal('Alice A.');
      // The JSON report carries the same proof, and still validates.
      const report = buildReport(outcome, {});
      assertValidReport(report, 'bola.modify report');
      const issue = report.reports.find((r) => r.id === ID)!.issues[0];
      expect(issue.evidence?.steps?.map((step) => step.role)).to.deep.equal([
        'PUT by the --as-other identity',
        'read-back by the owner (the first identity)',
        'restore by the owner (PUT with the earlier "displayName")',
      ]);
      expect(issue.details?.[0]).to.match(/restored "displayName" to its earlier value as the first identity \(200\)/);
    });
  });

  it("is skipped on a DELETE that the first identity's own request (auth.baseline) already carried out: its read-back gets 404", async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      method: 'DELETE',
      headers: bearer(TOKENS.alice),
      options: asBob,
      allowDestructive: true,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /cannot read the object back .*404/, requests: 1 });
  });

  describe('on a DELETE whose first call only moves the document to the trash (a second one purges it)', () => {
    const DOC = 'doc_9Xk2mQ7pL4';
    // Two-stage deletion, as file stores do: auth.baseline's DELETE as alice trashes the document, which alice can
    // still read; another DELETE purges it. `ownerOnly` is the safe twin (404 for bob).
    const startTrashTarget = (ownerOnly: boolean): Promise<Target> => {
      let state: 'live' | 'trashed' | 'gone' = 'live';
      return startTarget((req, res) => {
        const user = bearerOf(req) === TOKENS.alice ? 'alice' : bearerOf(req) === TOKENS.bob ? 'bob' : undefined;
        if (!user) return json(res, 401, { error: 'unauthorized' });
        if (
          new URL(req.url ?? '/', 'http://t').pathname !== `/documents/${DOC}` ||
          state === 'gone' ||
          (ownerOnly && user !== 'alice')
        ) {
          return json(res, 404, { error: 'not found' });
        }
        if (req.method === 'GET')
          return json(res, 200, { id: DOC, owner: 'alice', title: 'Q3 plan', trashed: state === 'trashed' });
        state = state === 'live' ? 'trashed' : 'gone';
        res.writeHead(204).end();
      });
    };

    it("fails when bob's DELETE purges alice's document: her read-back gets 404, and the detail says it cannot be restored", async () => {
      target = await startTrashTarget(false);
      const outcome = await scanTarget(target.url(`/documents/${DOC}`), {
        checks: [ID],
        method: 'DELETE',
        headers: bearer(TOKENS.alice),
        options: asBob,
        allowDestructive: true,
      });
      expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 7.1 }, requests: 3 });
      const path = `/documents/${DOC}`;
      expect(proofOf(outcome)).to.deep.equal([
        `DELETE ${path} → 204: DELETE by the --as-other identity`,
        `GET ${path} → 404: read-back by the owner (the first identity)`,
      ]);
      expect(resultOf(outcome, ID).findings[0].detail).to.match(/a deleted object cannot be restored/);
    });

    it('passes its safe twin, where only the owner may delete', async () => {
      target = await startTrashTarget(true);
      const outcome = await scanTarget(target.url(`/documents/${DOC}`), {
        checks: [ID],
        method: 'DELETE',
        headers: bearer(TOKENS.alice),
        options: asBob,
        allowDestructive: true,
      });
      expectResult(outcome, ID, { status: 'passed', requests: 2 });
    });
  });

  it('is skipped when the write body has no field a recognisable value can be written to', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      method: 'PATCH',
      body: '{"ownerId":"x"}',
      headers: aliceJson,
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /no JSON field/, requests: 1 });
  });

  it('is not applicable to reads', async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url(`/orders/${ORDER_ID}`), {
      checks: [ID],
      headers: bearer(TOKENS.alice),
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /not a write/, requests: 0 });
  });

  it("is not applicable to a write to the caller's own record (PUT /me/profile names no object)", async () => {
    target = await startObjectsTarget({ checksOwner: false });
    const outcome = await scanTarget(target.url('/me/profile'), {
      checks: [ID],
      method: 'PUT',
      body: '{"name":"x"}',
      headers: aliceJson,
      options: asBob,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /names no object/, requests: 0 });
  });

  it("is skipped when the first identity's own write failed (auth.baseline got 404)", async () => {
    target = await startObjectsTarget({ checksOwner: true });
    const outcome = await scanTarget(target.url('/orders/ord_0000000000'), {
      checks: [ID],
      method: 'DELETE',
      headers: bearer(TOKENS.alice),
      options: asBob,
      allowDestructive: true,
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /own request got 404/, requests: 0 });
  });
});
