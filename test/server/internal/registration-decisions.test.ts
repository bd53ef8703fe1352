import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

describe('internal registration decisions', () => {
  let h: InternalHarness;
  let org: Organization;
  let reviewer: string;
  let admin: string;
  before(async () => {
    h = await startInternal();
    org = await h.organization();
    reviewer = await h.staffToken('rita', 'gatehouse:review');
    admin = await h.staffToken('adam', 'gatehouse:admin');
  });
  after(() => h.close());

  const path = (id: string, action: string) =>
    `/internal/v1/organizations/${org.id}/registrations/${id}/actions/${action}`;
  const decide = (token: string, id: string, action: string, body: object = {}) =>
    h.internal.post(path(id, action)).set('Authorization', `Bearer ${token}`).send(body);
  const history = async (id: string) =>
    (
      await h.internal
        .get(`/internal/v1/organizations/${org.id}/registrations/${id}/audit`)
        .set('Authorization', `Bearer ${reviewer}`)
    ).body.data;
  /** The history after the requester's create and submit. */
  const audit = async (id: string) => (await history(id)).slice(2);

  it('approves a pending registration: active, a clientId, revision + 1, and one audit entry from → to', async () => {
    const id = await h.submitted(org);
    const res = await decide(reviewer, id, 'approve');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ id, status: 'active', decidedBy: 'rita' });
    expect(res.body.clientId).to.be.a('string');
    expect(res.headers.etag).to.equal(`"${res.body.revision}"`);
    const all = await history(id);
    expect(
      all.map(
        (e: { actor: string; action: string; from?: string; to: string }) =>
          `${e.actor}:${e.action}:${e.from ?? ''}→${e.to}`,
      ),
    ).to.deep.equal(['alice:create:→draft', 'alice:submit:draft→pending_review', 'rita:approve:pending_review→active']);
    const entries = await audit(id);
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({
      action: 'approve',
      actor: 'rita',
      from: 'pending_review',
      to: 'active',
      revision: res.body.revision,
      targetType: 'registration',
    });
    expect(new Date(entries[0].at).toString()).not.to.equal('Invalid Date');
  });

  for (const action of ['reject', 'request-changes']) {
    it(`refuses ${action} without a reason (422 naming reason) and leaves the registration pending`, async () => {
      const id = await h.submitted(org);
      const res = await decide(reviewer, id, action, {});
      expect(res.status).to.equal(422);
      expect(res.body.error.fields).to.deep.equal([{ path: 'reason', message: 'is required' }]);
      const blank = await decide(reviewer, id, action, { reason: '   ' });
      expect(blank.status).to.equal(422);
      expect((await h.deps.store.registrations.get(org.id, id))!.status).to.equal('pending_review');
      expect(await audit(id)).to.deep.equal([]);
    });
  }

  it('rejects with a reason, and the reason is in the audit entry', async () => {
    const id = await h.submitted(org);
    const res = await decide(reviewer, id, 'reject', { reason: 'Not a real product' });
    expect(res.body.status).to.equal('rejected');
    expect((await audit(id))[0]).to.include({
      action: 'reject',
      from: 'pending_review',
      to: 'rejected',
      reason: 'Not a real product',
    });
  });

  it('requests changes with a reason; the requester can then edit and resubmit on the public API', async () => {
    const id = await h.submitted(org);
    const res = await decide(reviewer, id, 'request-changes', { reason: 'Add a logo' });
    expect(res.body.status).to.equal('changes_requested');
    const token = await h.requesterToken();
    const got = await h.public
      .get(`/api/v1/organizations/${org.id}/registrations/${id}`)
      .set('Authorization', `Bearer ${token}`);
    expect(got.body.actions).to.include.members(['edit', 'submit']);
  });

  it('walks active → suspended → active → deprecated as an admin, auditing each step in order', async () => {
    const id = await h.submitted(org);
    await decide(reviewer, id, 'approve');
    expect((await decide(admin, id, 'suspend', { reason: 'Abuse report' })).body.status).to.equal('suspended');
    expect((await decide(admin, id, 'unsuspend')).body.status).to.equal('active');
    expect((await decide(admin, id, 'deprecate')).body.status).to.equal('deprecated');
    const steps = (await audit(id)).map(
      (e: { from: string; to: string; actor: string }) => `${e.actor}:${e.from}→${e.to}`,
    );
    expect(steps).to.deep.equal([
      'rita:pending_review→active',
      'adam:active→suspended',
      'adam:suspended→active',
      'adam:active→deprecated',
    ]);
  });

  it('answers 409 invalid_transition for a decision the status does not allow, and audits nothing', async () => {
    const id = await h.submitted(org);
    const res = await decide(admin, id, 'suspend');
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('invalid_transition');
    expect(await audit(id)).to.deep.equal([]);
  });

  it('answers 412 when If-Match names a stale revision', async () => {
    const id = await h.submitted(org);
    const res = await h.internal
      .post(path(id, 'approve'))
      .set('Authorization', `Bearer ${reviewer}`)
      .set('If-Match', '"1"')
      .send({});
    expect(res.status).to.equal(412);
  });

  it('never lets a reviewer decide on their own submission (approve, reject or request changes)', async () => {
    await h.deps.store.grants.grant({ organizationId: org.id, subject: 'rita', isDefault: false });
    const own = await h.submitted(org, 'rita');
    for (const [action, body] of [
      ['approve', {}],
      ['reject', { reason: 'x' }],
      ['request-changes', { reason: 'x' }],
    ] as const) {
      const res = await decide(reviewer, own, action, body);
      expect(res.status, action).to.equal(409);
      expect(res.body.error.message).to.match(/separation of duties/);
    }
    expect((await h.deps.store.registrations.get(org.id, own))!.status).to.equal('pending_review');
  });

  it('answers 404 for another organization, a malformed id, or an unknown registration', async () => {
    const other = await h.organization();
    const id = await h.submitted(other);
    expect((await decide(reviewer, id, 'approve')).status).to.equal(404);
    expect((await decide(reviewer, 'reg_x', 'approve')).status).to.equal(404);
    expect((await decide(reviewer, 'reg_AAAAAAAAAAAAAAAAAAAAAA', 'approve')).status).to.equal(404);
  });

  it('refuses unknown body fields with 422', async () => {
    const id = await h.submitted(org);
    const res = await decide(reviewer, id, 'approve', { status: 'active' });
    expect(res.status).to.equal(422);
  });

  it('shows a registration with its reviewer fields and no secret', async () => {
    const id = await h.submitted(org);
    const res = await h.internal
      .get(`/internal/v1/organizations/${org.id}/registrations/${id}`)
      .set('Authorization', `Bearer ${admin}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ id, status: 'pending_review', submittedBy: 'alice' });
  });
});
