import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { startInternal, type InternalHarness } from './support/internal-harness.js';

describe('internal comments on a registration', () => {
  let h: InternalHarness;
  let org: Organization;
  before(async () => {
    h = await startInternal();
    org = await h.organization();
  });
  after(() => h.close());

  it('adds comments by reviewers and admins and lists them oldest first; the public API never shows them', async () => {
    const id = await h.submitted(org);
    const url = `/internal/v1/organizations/${org.id}/registrations/${id}/comments`;
    const rita = await h.staffToken('rita', 'gatehouse:review');
    const adam = await h.staffToken('adam', 'gatehouse:admin');
    expect(
      (await h.internal.post(url).set('Authorization', `Bearer ${rita}`).send({ body: 'Checked the domain.' })).status,
    ).to.equal(201);
    expect(
      (await h.internal.post(url).set('Authorization', `Bearer ${adam}`).send({ body: 'Customer is on pro.' })).status,
    ).to.equal(201);
    const list = await h.internal.get(url).set('Authorization', `Bearer ${rita}`);
    expect(list.body.data.map((c: { author: string; body: string }) => `${c.author}: ${c.body}`)).to.deep.equal([
      'rita: Checked the domain.',
      'adam: Customer is on pro.',
    ]);
    const pub = await h.public
      .get(`/api/v1/organizations/${org.id}/registrations/${id}/comments`)
      .set('Authorization', `Bearer ${await h.requesterToken()}`);
    expect(pub.status).to.equal(404);
  });

  it('refuses an empty comment (422) and a comment on an unknown registration (404)', async () => {
    const id = await h.submitted(org);
    const rita = await h.staffToken('rita', 'gatehouse:review');
    const url = `/internal/v1/organizations/${org.id}/registrations/${id}/comments`;
    expect((await h.internal.post(url).set('Authorization', `Bearer ${rita}`).send({ body: '' })).status).to.equal(422);
    expect((await h.internal.post(url).set('Authorization', `Bearer ${rita}`).send({ body: '  ' })).status).to.equal(
      422,
    );
    const unknown = `/internal/v1/organizations/${org.id}/registrations/reg_AAAAAAAAAAAAAAAAAAAAAA/comments`;
    expect(
      (await h.internal.post(unknown).set('Authorization', `Bearer ${rita}`).send({ body: 'hi' })).status,
    ).to.equal(404);
  });
});
