/**
 * Strong ETags and If-Match (RFC 9110 §13.1.1, docs/architecture.md §1.5): the precondition is part of the one conditional
 * write, so of two writers holding the same ETag exactly one wins and the other gets 412 with the current ETag.
 */
import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { expectConforms, NO_RATE_LIMITS, seedRegistration } from './api-fixtures.js';

describe('optimistic concurrency with ETag and If-Match', () => {
  let h: ServiceHarness;
  let org: Organization;
  let auth: string;

  before(async () => {
    h = await startService({ env: NO_RATE_LIMITS });
    org = await h.createOrganization('pro');
    auth = `Bearer ${await h.token()}`;
  });
  after(async () => {
    await h.close();
  });

  const url = (id: string) => `/api/v1/organizations/${org.id}/registrations/${id}`;

  it('lets exactly one of two concurrent PATCHes with the same If-Match win; the other gets 412', async () => {
    for (let round = 0; round < 5; round += 1) {
      const record = await seedRegistration(h, org);
      const results = await Promise.all(
        ['first', 'second'].map((name) =>
          h.request.patch(url(record.id)).set('Authorization', auth).set('If-Match', '"1"').send({ name }),
        ),
      );
      for (const r of results) expectConforms(r);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([200, 412]);
      const loser = results.find((r) => r.status === 412);
      const winner = results.find((r) => r.status === 200);
      expect(loser?.body.error.code).to.equal('precondition_failed');
      expect(loser?.headers.etag).to.equal('"2"');
      const stored = await h.deps.store.registrations.get(org.id, record.id);
      expect(stored?.name).to.equal(winner?.body.name);
      expect(stored?.revision).to.equal(2);
    }
  });

  it('answers 412 for a stale or weak tag on PATCH, DELETE and actions, and leaves the record alone', async () => {
    const record = await seedRegistration(h, org, { revision: 3 });
    for (const tag of ['"2"', 'W/"3"', '"r3"', 'garbage']) {
      expect(
        (await h.request.patch(url(record.id)).set('Authorization', auth).set('If-Match', tag).send({ name: 'x' }))
          .status,
      ).to.equal(412);
      expect((await h.request.delete(url(record.id)).set('Authorization', auth).set('If-Match', tag)).status).to.equal(
        412,
      );
      expect(
        (
          await h.request
            .post(`${url(record.id)}/actions/submit`)
            .set('Authorization', auth)
            .set('If-Match', tag)
        ).status,
      ).to.equal(412);
    }
    expect(await h.deps.store.registrations.get(org.id, record.id)).to.deep.equal(record);
  });

  it('accepts the current tag, a list containing it, and *', async () => {
    const record = await seedRegistration(h, org);
    const first = await h.request
      .patch(url(record.id))
      .set('Authorization', auth)
      .set('If-Match', '"1"')
      .send({ name: 'a' });
    expect([first.status, first.headers.etag]).to.deep.equal([200, '"2"']);
    const second = await h.request
      .patch(url(record.id))
      .set('Authorization', auth)
      .set('If-Match', '"9", "2"')
      .send({ name: 'b' });
    expect([second.status, second.headers.etag]).to.deep.equal([200, '"3"']);
    const third = await h.request
      .patch(url(record.id))
      .set('Authorization', auth)
      .set('If-Match', '*')
      .send({ name: 'c' });
    expect([third.status, third.headers.etag]).to.deep.equal([200, '"4"']);
  });

  it('answers 404, not 412, when the resource is gone', async () => {
    const record = await seedRegistration(h, org);
    await h.request.delete(url(record.id)).set('Authorization', auth).expect(204);
    const res = await h.request
      .patch(url(record.id))
      .set('Authorization', auth)
      .set('If-Match', '"1"')
      .send({ name: 'x' });
    expect(res.status).to.equal(404);
  });
});
