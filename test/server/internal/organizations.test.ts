import { expect } from 'chai';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

describe('internal organization management and API Access', () => {
  let h: InternalHarness;
  let admin: string;
  let reviewer: string;
  before(async () => {
    h = await startInternal();
    admin = await h.staffToken('adam', 'gatehouse:admin');
    reviewer = await h.staffToken('rita', 'gatehouse:review');
  });
  after(() => h.close());

  it('creates an organization (201 + Location) and audits it', async () => {
    const res = await h.internal
      .post('/internal/v1/organizations')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'Acme', plan: 'free' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ name: 'Acme', plan: 'free' });
    expect(res.headers.location).to.equal(`/internal/v1/organizations/${res.body.id}`);
    const audit = await h.internal
      .get(`/internal/v1/organizations/${res.body.id}/audit`)
      .set('Authorization', `Bearer ${reviewer}`);
    expect(audit.body.data).to.have.length(1);
    expect(audit.body.data[0]).to.include({ action: 'create_organization', actor: 'adam', to: 'free' });
  });

  it('refuses an invalid organization body with 422 listing each field', async () => {
    const res = await h.internal
      .post('/internal/v1/organizations')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: '', plan: 'gold' });
    expect(res.status).to.equal(422);
    expect(res.body.error.fields.map((f: { path: string }) => f.path)).to.include.members(['name', 'plan']);
  });

  it('sets the plan, and the public capabilities follow; the audit records from → to', async () => {
    const org = await h.organization({ plan: 'free' });
    const res = await h.internal
      .put(`/internal/v1/organizations/${org.id}/plan`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ plan: 'enterprise', reason: 'Contract signed' });
    expect(res.status).to.equal(200);
    expect(res.body.plan).to.equal('enterprise');
    const caps = await h.public
      .get(`/api/v1/organizations/${org.id}/capabilities`)
      .set('Authorization', `Bearer ${await h.requesterToken()}`);
    expect(caps.body.plan).to.equal('enterprise');
    const audit = (
      await h.internal.get(`/internal/v1/organizations/${org.id}/audit`).set('Authorization', `Bearer ${admin}`)
    ).body.data;
    expect(audit.at(-1)).to.include({ action: 'set_plan', from: 'free', to: 'enterprise', reason: 'Contract signed' });
    const missing = await h.internal
      .put('/internal/v1/organizations/org_AAAAAAAAAAAAAAAAAAAAAA/plan')
      .set('Authorization', `Bearer ${admin}`)
      .send({ plan: 'pro' });
    expect(missing.status).to.equal(404);
  });

  it('grants a subject access (marked default), which opens the organization to them on the public API, then revokes it', async () => {
    const res = await h.internal
      .post('/internal/v1/organizations')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'Beta', plan: 'pro' });
    const orgId = res.body.id as string;
    const bobToken = await h.requesterToken('bob');
    const before = await h.public
      .get(`/api/v1/organizations/${orgId}/capabilities`)
      .set('Authorization', `Bearer ${bobToken}`);
    expect(before.status).to.equal(404);

    const granted = await h.internal
      .post(`/internal/v1/organizations/${orgId}/access`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ subject: 'bob', isDefault: true });
    expect(granted.status).to.equal(200);
    expect(granted.body).to.include({ organizationId: orgId, subject: 'bob', isDefault: true, role: 'owner' });
    const asViewer = await h.internal
      .post(`/internal/v1/organizations/${orgId}/access`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ subject: 'bob', isDefault: true, role: 'viewer' });
    expect(asViewer.body).to.include({ role: 'viewer', isDefault: true });
    const caps = await h.public
      .get(`/api/v1/organizations/${orgId}/capabilities`)
      .set('Authorization', `Bearer ${bobToken}`);
    expect(caps.body.role).to.equal('viewer');
    const list = await h.public.get('/api/v1/organizations').set('Authorization', `Bearer ${bobToken}`);
    expect(list.body.data.map((o: { id: string; isDefault: boolean }) => [o.id, o.isDefault])).to.deep.equal([
      [orgId, true],
    ]);

    const revoked = await h.internal
      .delete(`/internal/v1/organizations/${orgId}/access/bob`)
      .set('Authorization', `Bearer ${admin}`);
    expect(revoked.status).to.equal(204);
    const after = await h.public
      .get(`/api/v1/organizations/${orgId}/capabilities`)
      .set('Authorization', `Bearer ${bobToken}`);
    expect(after.status).to.equal(404);
    expect(
      (
        await h.internal
          .delete(`/internal/v1/organizations/${orgId}/access/bob`)
          .set('Authorization', `Bearer ${admin}`)
      ).status,
    ).to.equal(404);

    const audit = (
      await h.internal.get(`/internal/v1/organizations/${orgId}/audit`).set('Authorization', `Bearer ${admin}`)
    ).body.data;
    expect(
      audit.map((e: { action: string; from?: string; to?: string }) => `${e.action}:${e.from ?? ''}→${e.to}`),
    ).to.deep.equal([
      'create_organization:→pro',
      'grant_access:none→default:owner',
      'grant_access:default:owner→default:viewer',
      'revoke_access:default:viewer→none',
    ]);
  });

  it('pages through the audit log across organizations, oldest first', async () => {
    const fresh = await startInternal();
    try {
      const token = await fresh.staffToken('adam', 'gatehouse:admin');
      for (const name of ['One', 'Two', 'Three']) {
        await fresh.internal
          .post('/internal/v1/organizations')
          .set('Authorization', `Bearer ${token}`)
          .send({ name, plan: 'free' });
      }
      const first = await fresh.internal.get('/internal/v1/audit?limit=2').set('Authorization', `Bearer ${token}`);
      expect(first.status).to.equal(200);
      expect(first.body.data).to.have.length(2);
      const { afterAt, afterId } = first.body.next;
      const second = await fresh.internal
        .get(`/internal/v1/audit?limit=2&afterAt=${encodeURIComponent(afterAt)}&afterId=${afterId}`)
        .set('Authorization', `Bearer ${token}`);
      expect(second.body.data).to.have.length(1);
      expect(second.body.next).to.equal(null);
      const ids = [...first.body.data, ...second.body.data].map((e: { targetId: string }) => e.targetId);
      expect(new Set(ids).size).to.equal(3);
      const bad = await fresh.internal
        .get('/internal/v1/audit?afterAt=yesterday&afterId=x')
        .set('Authorization', `Bearer ${token}`);
      expect(bad.status).to.equal(400);
    } finally {
      await fresh.close();
    }
  });

  it('answers 404 when granting access to an unknown organization', async () => {
    const res = await h.internal
      .post('/internal/v1/organizations/org_AAAAAAAAAAAAAAAAAAAAAA/access')
      .set('Authorization', `Bearer ${admin}`)
      .send({ subject: 'bob' });
    expect(res.status).to.equal(404);
  });
});
