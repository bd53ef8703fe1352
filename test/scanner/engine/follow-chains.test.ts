import { expect } from 'chai';
import authBaseline from '../../../checks/auth.baseline.js';
import type { CheckDefinition } from '../../../scanner/api.js';
import { runScan } from '../../../scanner/engine.js';
import { json, startTarget, type Target } from '../../fixtures/targets/start-target.js';
import { curlOperation, loaded, probe } from './support/engine-fixture.js';

const REACHED = 't.reached';

/**
 * An API where a user raises its own role through PUT /role-a (once: a replay is refused) or PUT /role-b, and
 * GET /staff answers only an admin.
 */
describe('the privilege chain (follow-chains.ts)', () => {
  let target: Target;
  let role = 'user';
  let roleAUsed = false;
  /** PUT /role-a applies the raise and then fails with 500 (the write landed, the answer did not). */
  let roleAFailsAfterWriting = false;
  const calls: string[] = [];
  const warnings: string[] = [];
  before(
    async () =>
      (target = await startTarget((req, res, body) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (req.headers.authorization !== 'Bearer alice') return json(res, 401, {});
        if (req.method === 'PUT' && (path === '/role-a' || path === '/role-b')) {
          const asked = (JSON.parse(body || '{}') as { role?: string }).role;
          if (asked) calls.push(`${path} ${asked}`);
          if (path === '/role-a' && roleAFailsAfterWriting && asked === 'admin') {
            role = 'admin';
            return json(res, 500, { error: 'the audit log is down' });
          }
          if (path === '/role-a' && asked === 'admin' && roleAUsed) return json(res, 409, { error: 'once a day' });
          if (path === '/role-a' && asked === 'admin') roleAUsed = true;
          if (asked) role = asked;
          return json(res, 200, { role });
        }
        if (path === '/staff') return role === 'admin' ? json(res, 200, { staff: true }) : json(res, 403, {});
        return json(res, 404, {});
      })),
  );
  after(() => target.close());

  // Records, as a check that proved it would, that each role operation raises the first identity to admin.
  const recorder = probe('t.escalation', {
    exclusive: true,
    appliesTo: (operation) => (operation.method === 'PUT' ? true : 'not a role update'),
    async run(ctx) {
      const url = ctx.operation.url;
      const headers = { 'Content-Type': 'application/json' };
      ctx.model.recordEscalation({
        identity: 'first',
        operation: ctx.operation,
        field: 'role',
        from: 'user',
        to: 'admin',
        raise: { url, body: '{"role":"admin"}', headers, as: 'first', restores: true },
        restore: { url, body: '{"role":"user"}', headers, as: 'first', restores: true },
        detail: `${ctx.operation.id} raises the role`,
      });
    },
  });
  const reached: CheckDefinition = probe(REACHED, {
    rerunsAsRaised: true,
    dependsOn: ['auth.baseline'],
    appliesTo: (operation) => (operation.method === 'GET' ? true : 'not a read'),
    issues: [{ id: 't.staff', name: 'Staff data', cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N', score: 7 } }],
    async run(ctx) {
      const answer = await ctx.http.send({ headers: { 'X-Probe': 'reached' } });
      if (answer.status === 200) ctx.report('t.staff', { detail: 'staff data', attempt: answer });
    },
  });

  const scan = () => {
    const credential = ['Authorization: Bearer alice'];
    return runScan({
      kind: 'curl',
      operations: [
        curlOperation(target.url('/role-a'), { method: 'PUT', headers: credential }),
        curlOperation(target.url('/role-b'), { method: 'PUT', headers: credential }),
        curlOperation(target.url('/staff'), { headers: credential }),
      ],
      checks: [loaded(authBaseline), loaded(recorder), loaded(reached)],
      allowDestructive: true,
      log: { debug() {}, warn: (m) => warnings.push(m) },
    });
  };

  it('hands over to the next escalation when the first is refused on replay, and sets the role back', async () => {
    roleAUsed = true; // PUT /role-a proved its raise earlier; its replay is refused now
    role = 'user';
    const outcome = await scan();
    const staff = outcome.results.find((r) => r.checkId === REACHED && r.operationId === 'GET /staff')!;
    expect(staff.status).to.equal('failed');
    expect(staff.findings[0].chain?.map((s) => `${s.step} ${s.role} ${s.operation}`)).to.deep.equal([
      '1 raised PUT /role-b',
      '2 reached GET /staff',
    ]);
    expect(warnings.join('\n')).to.include('privilege chain not followed through PUT /role-a');
    expect(role).to.equal('user');
  });

  it('sets back a replayed raise that got a server error before trying the next escalation', async () => {
    roleAUsed = false;
    roleAFailsAfterWriting = true;
    role = 'user';
    calls.length = 0;
    const outcome = await scan();
    roleAFailsAfterWriting = false;
    // The 500 on PUT /role-a hid a write that landed: it is set back first, then PUT /role-b raises and restores.
    expect(calls).to.deep.equal(['/role-a admin', '/role-a user', '/role-b admin', '/role-b user']);
    expect(role).to.equal('user');
    expect(outcome.model?.ownRestores.map((r) => [r.operation, r.fields, r.restored])).to.deep.equal([
      ['PUT /role-a', ['role'], true],
      ['PUT /role-b', ['role'], true],
    ]);
  });
});
