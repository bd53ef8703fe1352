/**
 * Tenant isolation (OWASP API1, docs/architecture.md §1.2): every endpoint answered with another organization's ids is a 404
 * `not_found`, exactly like an unknown id, and nothing of the other organization changes.
 */
import { expect } from 'chai';
import { newId } from '../../../server/ids.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import type { Registration } from '../../../server/components/registrations/registrations.model.js';
import type { ChangeSet } from '../../../server/components/change-sets/change-sets.model.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { expectConforms, NO_RATE_LIMITS, seedRegistration } from './api-fixtures.js';

type Call = { method: 'get' | 'post' | 'patch' | 'delete'; path: string; body?: object };

function endpoints(org: string, reg: string, cs: string): Call[] {
  const base = `/api/v1/organizations/${org}`;
  const r = `${base}/registrations/${reg}`;
  const calls: Call[] = [
    { method: 'get', path: `${base}/capabilities` },
    { method: 'get', path: `${base}/policy-profiles` },
    { method: 'get', path: `${base}/policy-profiles/pp_standard` },
    { method: 'get', path: `${base}/templates` },
    { method: 'get', path: `${base}/templates/tpl_web` },
    { method: 'get', path: `${base}/registrations` },
    { method: 'post', path: `${base}/registrations`, body: { name: 'Intruder', templateId: 'tpl_web' } },
    { method: 'post', path: `${base}/registrations/validation`, body: { name: 'Intruder', templateId: 'tpl_web' } },
    { method: 'get', path: `${r}/validation` },
    { method: 'get', path: r },
    { method: 'patch', path: r, body: { name: 'Stolen' } },
    { method: 'delete', path: r },
    { method: 'post', path: `${r}/actions/submit` },
    { method: 'post', path: `${r}/actions/withdraw` },
    { method: 'get', path: `${r}/change-sets` },
    { method: 'post', path: `${r}/change-sets`, body: { changes: { contacts: ['x@example.com'] } } },
    { method: 'get', path: `${r}/change-sets/${cs}` },
    { method: 'post', path: `${r}/change-sets/${cs}/actions/withdraw` },
  ];
  return calls;
}

/** The calls that name a registration (and maybe a change set) id. */
const withRegistrationId = (calls: Call[], reg: string) =>
  calls.filter((c) => c.path.includes(`/registrations/${reg}`));

describe('tenant isolation', () => {
  let h: ServiceHarness;
  let mine: Organization;
  let theirs: Organization;
  let auth: string;
  let myRegistration: Registration;
  let theirDraft: Registration;
  let theirActive: Registration;
  let theirChangeSet: ChangeSet;

  before(async () => {
    h = await startService({ env: NO_RATE_LIMITS });
    mine = await h.createOrganization('enterprise');
    theirs = await h.createOrganization('enterprise', { subject: 'bob' });
    auth = `Bearer ${await h.token()}`;
    myRegistration = await seedRegistration(h, mine, { status: 'active' });
    theirDraft = await seedRegistration(h, theirs, { status: 'draft' });
    theirActive = await seedRegistration(h, theirs, { status: 'active' });
    const now = new Date();
    const created = await h.deps.store.changeSets.create({
      id: newId('cs'),
      registrationId: theirActive.id,
      organizationId: theirs.id,
      status: 'pending_review',
      baseRevision: 1,
      changes: { contacts: ['bob@example.com'] },
      revision: 1,
      createdAt: now,
      updatedAt: now,
      createdBy: 'bob',
    });
    if (!created.ok) throw new Error('seeding failed');
    theirChangeSet = created.record;
  });
  after(async () => {
    await h.close();
  });

  async function expectAll404(calls: Call[]): Promise<void> {
    for (const call of calls) {
      const res = await h.request[call.method](call.path)
        .set('Authorization', auth)
        .send(call.body ?? {});
      expect(res.status, `${call.method.toUpperCase()} ${call.path} → ${JSON.stringify(res.body)}`).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
      expectConforms(res);
    }
  }

  it('answers 404 on every endpoint of an organization the caller has no grant for', async () => {
    await expectAll404(endpoints(theirs.id, theirDraft.id, theirChangeSet.id));
    await expectAll404(endpoints(theirs.id, theirActive.id, theirChangeSet.id));
  });

  it("answers 404 for another organization's registration and change-set ids under the caller's own organization", async () => {
    await expectAll404(withRegistrationId(endpoints(mine.id, theirDraft.id, theirChangeSet.id), theirDraft.id));
    await expectAll404(withRegistrationId(endpoints(mine.id, theirActive.id, theirChangeSet.id), theirActive.id));
    // Their change set under my registration is just as unknown.
    await expectAll404(
      endpoints(mine.id, myRegistration.id, theirChangeSet.id).filter((c) =>
        c.path.includes(`/change-sets/${theirChangeSet.id}`),
      ),
    );
  });

  it('answers the same 404 for unknown and malformed ids', async () => {
    await expectAll404(endpoints(newId('org'), newId('reg'), newId('cs')));
    await expectAll404(endpoints('not-an-id', 'not-an-id', 'not-an-id'));
    await expectAll404(withRegistrationId(endpoints(mine.id, 'reg_short', 'cs_../../x'), 'reg_short'));
  });

  it("changes nothing of the other organization's data", async () => {
    expect(await h.deps.store.registrations.get(theirs.id, theirDraft.id)).to.deep.equal(theirDraft);
    expect(await h.deps.store.registrations.get(theirs.id, theirActive.id)).to.deep.equal(theirActive);
    expect(await h.deps.store.changeSets.get(theirs.id, theirActive.id, theirChangeSet.id)).to.deep.equal(
      theirChangeSet,
    );
    expect(await h.deps.store.registrations.count(theirs.id)).to.equal(2);
  });

  it('lists only the caller’s organizations', async () => {
    const res = await h.request.get('/api/v1/organizations').set('Authorization', auth);
    expect(res.body.data.map((o: { id: string }) => o.id)).to.deep.equal([mine.id]);
  });
});
