import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

describe('internal change-set decisions', () => {
  let h: InternalHarness;
  let org: Organization;
  let reviewer: string;
  let admin: string;
  before(async () => {
    h = await startInternal();
    org = await h.organization({ plan: 'pro' });
    reviewer = await h.staffToken('rita', 'gatehouse:review');
    admin = await h.staffToken('adam', 'gatehouse:admin');
  });
  after(() => h.close());

  const base = (id: string) => `/internal/v1/organizations/${org.id}/registrations/${id}`;

  async function activeWithChangeSet(changes: object = { redirectUris: ['https://app.example.com/new-callback'] }) {
    const id = await h.submitted(org);
    await h.internal
      .post(`${base(id)}/actions/approve`)
      .set('Authorization', `Bearer ${reviewer}`)
      .send({});
    const token = await h.requesterToken();
    const proposed = await h.public
      .post(`/api/v1/organizations/${org.id}/registrations/${id}/change-sets`)
      .set('Authorization', `Bearer ${token}`)
      .send({ changes });
    expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
    return { id, changeSetId: proposed.body.id as string };
  }

  it('approves a change set: the registration config changes, its revision grows, and the history shows it', async () => {
    const { id, changeSetId } = await activeWithChangeSet();
    const before = (await h.deps.store.registrations.get(org.id, id))!;
    const res = await h.internal
      .post(`${base(id)}/change-sets/${changeSetId}/actions/approve`)
      .set('Authorization', `Bearer ${reviewer}`)
      .send({});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal('approved');
    const after = (await h.deps.store.registrations.get(org.id, id))!;
    expect(after.config.redirectUris).to.deep.equal(['https://app.example.com/new-callback']);
    expect(after.revision).to.equal(before.revision + 1);
    const history = (await h.internal.get(`${base(id)}/audit`).set('Authorization', `Bearer ${reviewer}`)).body.data;
    expect(history.at(-1)).to.include({
      targetType: 'change_set',
      targetId: changeSetId,
      registrationId: id,
      action: 'approve',
      from: 'pending_review',
      to: 'approved',
      revision: after.revision,
    });
  });

  it("audits the requester's own change-set transitions too: propose, then withdraw", async () => {
    const { id, changeSetId } = await activeWithChangeSet();
    const token = await h.requesterToken();
    const withdrawn = await h.public
      .post(`/api/v1/organizations/${org.id}/registrations/${id}/change-sets/${changeSetId}/actions/withdraw`)
      .set('Authorization', `Bearer ${token}`)
      .send({});
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).to.equal(200);
    const history = (await h.internal.get(`${base(id)}/audit`).set('Authorization', `Bearer ${reviewer}`)).body
      .data as Record<string, unknown>[];
    const ofChangeSet = history.filter((e) => e.targetId === changeSetId).map((e) => [e.action, e.from, e.to]);
    expect(ofChangeSet).to.deep.equal([
      ['propose', undefined, 'pending_review'],
      ['withdraw', 'pending_review', 'withdrawn'],
    ]);
  });

  it('refuses to approve a change set whose baseRevision is stale (409 conflict), leaving the config as it was', async () => {
    const { id, changeSetId } = await activeWithChangeSet();
    await h.internal
      .post(`${base(id)}/actions/suspend`)
      .set('Authorization', `Bearer ${admin}`)
      .send({});
    await h.internal
      .post(`${base(id)}/actions/unsuspend`)
      .set('Authorization', `Bearer ${admin}`)
      .send({});
    const res = await h.internal
      .post(`${base(id)}/change-sets/${changeSetId}/actions/approve`)
      .set('Authorization', `Bearer ${reviewer}`)
      .send({});
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('conflict');
    expect((await h.deps.store.registrations.get(org.id, id))!.config.redirectUris).to.deep.equal([
      'https://app.example.com/callback',
    ]);
  });

  it('rejects a change set only with a reason, and the registration keeps its config', async () => {
    const { id, changeSetId } = await activeWithChangeSet();
    const url = `${base(id)}/change-sets/${changeSetId}/actions/reject`;
    expect((await h.internal.post(url).set('Authorization', `Bearer ${reviewer}`).send({})).status).to.equal(422);
    const res = await h.internal.post(url).set('Authorization', `Bearer ${reviewer}`).send({ reason: 'Unknown host' });
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('rejected');
    const registration = (await h.deps.store.registrations.get(org.id, id))!;
    expect(registration.pendingChangeSetId).to.equal(undefined);
    expect(registration.config.redirectUris).to.deep.equal(['https://app.example.com/callback']);
  });

  it('never lets the proposer decide on their own change set', async () => {
    const { id, changeSetId } = await activeWithChangeSet();
    const own = await h.staffToken('alice', 'gatehouse:review');
    for (const [action, body] of [
      ['approve', {}],
      ['reject', { reason: 'x' }],
    ] as const) {
      const res = await h.internal
        .post(`${base(id)}/change-sets/${changeSetId}/actions/${action}`)
        .set('Authorization', `Bearer ${own}`)
        .send(body);
      expect(res.status, action).to.equal(409);
    }
  });

  it('lists pending registrations and change sets oldest first, narrowed by organization', async () => {
    const fresh = await startInternal();
    try {
      const a = await fresh.organization();
      const b = await fresh.organization();
      const rev = await fresh.staffToken('rita', 'gatehouse:review');
      const first = await fresh.submitted(a);
      const second = await fresh.submitted(b);
      const third = await fresh.submitted(a);
      await fresh.internal
        .post(`/internal/v1/organizations/${a.id}/registrations/${third}/actions/approve`)
        .set('Authorization', `Bearer ${rev}`)
        .send({});
      const cs = await fresh.public
        .post(`/api/v1/organizations/${a.id}/registrations/${third}/change-sets`)
        .set('Authorization', `Bearer ${await fresh.requesterToken()}`)
        .send({ changes: { contacts: ['ops@example.com'] } });
      expect(cs.status).to.equal(201);
      const all = await fresh.internal.get('/internal/v1/review-queue').set('Authorization', `Bearer ${rev}`);
      expect(all.status).to.equal(200);
      expect(
        all.body.data.map((i: { kind: string; registration: { id: string } }) => `${i.kind}:${i.registration.id}`),
      ).to.deep.equal([`registration:${first}`, `registration:${second}`, `change_set:${third}`]);
      expect(all.body.data[2].changeSet.id).to.equal(cs.body.id);
      const onlyB = await fresh.internal
        .get(`/internal/v1/review-queue?organizationId=${b.id}`)
        .set('Authorization', `Bearer ${rev}`);
      expect(onlyB.body.data.map((i: { registration: { id: string } }) => i.registration.id)).to.deep.equal([second]);
      const bad = await fresh.internal
        .get('/internal/v1/review-queue?organizationId=nope')
        .set('Authorization', `Bearer ${rev}`);
      expect(bad.status).to.equal(400);
    } finally {
      await fresh.close();
    }
  });
});
