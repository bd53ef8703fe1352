/** Cursor pagination (docs/architecture.md §R.3): limits, opaque cursors bound to organization and filters, Link headers. */
import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { configureCursorSecret, decodeCursor, encodeCursor } from '../../../server/http/pagination.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS, seedRegistration } from '../api/api-fixtures.js';

describe('cursor pagination of registrations', () => {
  let h: ServiceHarness;
  let org: Organization;
  let other: Organization;
  let auth: string;
  const ids: string[] = [];

  before(async () => {
    h = await startService({ env: { ...NO_RATE_LIMITS, PUBLIC_BASE_URL: 'https://api.example.com' } });
    org = await h.createOrganization('enterprise');
    other = await h.createOrganization('enterprise');
    auth = `Bearer ${await h.token()}`;
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 7; i += 1) {
      // Two records share each timestamp: the id breaks the tie.
      const at = new Date(t0 + Math.floor(i / 2) * 1000);
      const record = await seedRegistration(h, org, {
        createdAt: at,
        updatedAt: at,
        status: i % 3 === 0 ? 'active' : 'draft',
      });
      ids.push(record.id);
    }
    await seedRegistration(h, other);
  });
  after(async () => {
    await h.close();
  });

  const list = (query: string, organization = org) =>
    h.request.get(`/api/v1/organizations/${organization.id}/registrations${query}`).set('Authorization', auth);

  it('walks every record exactly once in (createdAt, id) order, page by page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).to.equal(200);
      seen.push(...res.body.data.map((r: { id: string }) => r.id));
      cursor = res.body.nextCursor;
      if (cursor) {
        expect(res.headers.link).to.equal(
          `<https://api.example.com/api/v1/organizations/${org.id}/registrations?limit=3&cursor=${cursor}>; rel="next"`,
        );
      } else expect(res.headers.link).to.equal(undefined);
      pages += 1;
    } while (cursor);
    expect(pages).to.equal(3);
    const full = await list('');
    expect(seen).to.deep.equal(full.body.data.map((r: { id: string }) => r.id));
    expect([...seen].sort()).to.deep.equal([...ids].sort());
  });

  it('keeps the status filter across pages and in the Link', async () => {
    const first = await list('?status=draft&limit=2');
    expect(first.body.data.every((r: { status: string }) => r.status === 'draft')).to.equal(true);
    expect(first.headers.link).to.contain('status=draft');
    const second = await list(`?status=draft&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.status).to.equal(200);
  });

  it('answers 400 invalid_cursor for a cursor of another organization, another filter, or garbage', async () => {
    const first = await list('?limit=1');
    const cursor = first.body.nextCursor as string;
    for (const res of [
      await list(`?limit=1&cursor=${cursor}`, other),
      await list(`?limit=1&status=draft&cursor=${cursor}`),
      await list('?cursor=not_a_cursor'),
      await list(`?cursor=${Buffer.from('{"t":"x"}').toString('base64url')}`),
      // Forged: a well-formed payload with a timestamp no store can hold, under the old unkeyed format and a made-up MAC.
      await list(`?cursor=${Buffer.from(`{"t":9000000000000000,"i":"${ids[0]}"}`).toString('base64url')}`),
      await list(
        `?cursor=${Buffer.from(`{"t":-9000000000000000,"i":"${ids[0]}"}`).toString('base64url')}.${'A'.repeat(22)}`,
      ),
      await list(`?cursor=${cursor.split('.')[0]}x.${cursor.split('.')[1]}`),
    ]) {
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_cursor');
    }
  });

  it('answers 400 invalid_request for a limit outside 1–100, a repeated parameter or an unknown status', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?limit=1.5',
      '?limit=1&limit=2',
      '?status=approved',
    ]) {
      const res = await list(query);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
    expect((await list('?limit=100')).status).to.equal(200);
  });

  it('encodes a cursor that only decodes under the same binding', () => {
    const binding = { resource: 'registrations', organizationId: org.id, filters: { status: undefined } };
    const key = { createdAt: new Date('2026-02-03T04:05:06.007Z'), id: 'reg_0000000000000000' };
    expect(decodeCursor(encodeCursor(key, binding), binding)).to.deep.equal(key);
    expect(() => decodeCursor(encodeCursor(key, binding), { ...binding, filters: { status: 'draft' } })).to.throw(
      'cursor',
    );
  });

  it("signs cursors with CURSOR_SECRET: instances sharing it accept each other's cursors, another key does not", () => {
    const binding = { resource: 'registrations', organizationId: org.id, filters: {} };
    const key = { createdAt: new Date('2026-02-03T04:05:06.007Z'), id: 'reg_0000000000000000' };
    configureCursorSecret('a'.repeat(32));
    const cursor = encodeCursor(key, binding);
    configureCursorSecret('b'.repeat(32));
    expect(() => decodeCursor(cursor, binding)).to.throw('cursor');
    configureCursorSecret('a'.repeat(32));
    expect(decodeCursor(cursor, binding)).to.deep.equal(key);
  });
});

describe('cursor pagination of change sets', () => {
  let h: ServiceHarness;

  before(async () => {
    h = await startService({ env: NO_RATE_LIMITS });
  });
  after(async () => {
    await h.close();
  });

  it('pages through the change sets of one registration, binds cursors to it and filters by status', async () => {
    const org = await h.createOrganization('pro');
    const auth = `Bearer ${await h.token()}`;
    const registrations = [
      await seedRegistration(h, org, { status: 'active' }),
      await seedRegistration(h, org, { status: 'active' }),
    ];
    const statuses = ['withdrawn', 'rejected', 'withdrawn', 'approved', 'withdrawn'] as const;
    for (const [i, status] of statuses.entries()) {
      const at = new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000);
      await h.deps.store.changeSets.create({
        id: `cs_00000000000000000${i}`,
        registrationId: registrations[0].id,
        organizationId: org.id,
        status,
        baseRevision: 1,
        changes: { contacts: [`c${i}@example.com`] },
        revision: 1,
        createdAt: at,
        updatedAt: at,
        createdBy: 'alice',
      });
    }
    const base = `/api/v1/organizations/${org.id}/registrations`;
    const first = await h.request.get(`${base}/${registrations[0].id}/change-sets?limit=2`).set('Authorization', auth);
    expect(first.body.data.map((c: { id: string }) => c.id)).to.deep.equal([
      'cs_000000000000000000',
      'cs_000000000000000001',
    ]);
    const second = await h.request
      .get(`${base}/${registrations[0].id}/change-sets?limit=2&cursor=${first.body.nextCursor}`)
      .set('Authorization', auth);
    expect(second.body.data.map((c: { id: string }) => c.id)).to.deep.equal([
      'cs_000000000000000002',
      'cs_000000000000000003',
    ]);
    const elsewhere = await h.request
      .get(`${base}/${registrations[1].id}/change-sets?limit=2&cursor=${first.body.nextCursor}`)
      .set('Authorization', auth);
    expect([elsewhere.status, elsewhere.body.error.code]).to.deep.equal([400, 'invalid_cursor']);
    const withdrawn = await h.request
      .get(`${base}/${registrations[0].id}/change-sets?status=withdrawn`)
      .set('Authorization', auth);
    expect(withdrawn.body.data.map((c: { id: string }) => c.id)).to.deep.equal([
      'cs_000000000000000000',
      'cs_000000000000000002',
      'cs_000000000000000004',
    ]);
    const unknown = await h.request
      .get(`${base}/${registrations[0].id}/change-sets?status=pending`)
      .set('Authorization', auth);
    expect(unknown.status).to.equal(400);
  });
});
