/** Idempotency-Key on create POSTs (draft-ietf-httpapi-idempotency-key-header-07, docs/architecture.md §1.5). */
import { expect } from 'chai';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { createMemoryStore } from '../../../server/store/memory-store.js';
import type { Store } from '../../../server/deps.js';
import { parseIdempotencyKey } from '../../../server/http/idempotency.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS, seedRegistration } from '../api/api-fixtures.js';

const KEY = '"6f1c9a52-0c1e-4a55-9d0e-6b7b2a0c1f00"';

describe('Idempotency-Key on create', () => {
  let h: ServiceHarness;
  let org: Organization;
  let auth: string;
  let path: string;
  /** While set, registration inserts wait for it: lets a test hold a request in flight. */
  let gate: Promise<void> | undefined;
  /** Called when an insert reaches the gate. */
  let reachedGate: () => void = () => undefined;

  before(async () => {
    const store: Store = createMemoryStore();
    const create = store.registrations.create.bind(store.registrations);
    store.registrations.create = async (record, options) => {
      if (gate) {
        reachedGate();
        await gate;
      }
      return create(record, options);
    };
    h = await startService({ env: NO_RATE_LIMITS, store });
    org = await h.createOrganization('enterprise');
    auth = `Bearer ${await h.token()}`;
    path = `/api/v1/organizations/${org.id}/registrations`;
  });
  after(async () => {
    await h.close();
  });

  const create = (body: object, key = KEY, token = auth, to = path) =>
    h.request.post(to).set('Authorization', token).set('Idempotency-Key', key).send(body);

  it('replays the stored 201 for a retry, creating nothing new', async () => {
    const before = await h.deps.store.registrations.count(org.id);
    const first = await create({ name: 'Once', templateId: 'tpl_web' }, '"key-replay-000001"');
    const retry = await create({ templateId: 'tpl_web', name: 'Once' }, '"key-replay-000001"');
    expect(first.status).to.equal(201);
    expect(retry.status).to.equal(201);
    expect(retry.body).to.deep.equal(first.body);
    expect(retry.headers.location).to.equal(first.headers.location);
    expect(retry.headers.etag).to.equal(first.headers.etag);
    expect(retry.headers['idempotent-replayed']).to.equal('true');
    expect(await h.deps.store.registrations.count(org.id)).to.equal(before + 1);
  });

  it('answers 422 idempotency_key_reused when the key comes back with another body', async () => {
    await create({ name: 'Original', templateId: 'tpl_web' }, 'key-reused-000001').expect(201);
    const res = await create({ name: 'Different', templateId: 'tpl_web' }, 'key-reused-000001');
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('idempotency_key_reused');
  });

  it('answers 409 conflict while the first request is still running', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const held = new Promise<void>((resolve) => {
      reachedGate = resolve;
    });
    const first = create({ name: 'Slow', templateId: 'tpl_web' }, 'key-in-flight-0001').then((r) => r);
    // The first request holds the key once its insert waits at the gate; only then retry.
    await held;
    const second = await create({ name: 'Slow', templateId: 'tpl_web' }, 'key-in-flight-0001');
    gate = undefined;
    open();
    expect(second.status).to.equal(409);
    expect(second.body.error.code).to.equal('conflict');
    expect((await first).status).to.equal(201);
    const replay = await create({ name: 'Slow', templateId: 'tpl_web' }, 'key-in-flight-0001');
    expect(replay.status).to.equal(201);
    expect(replay.headers['idempotent-replayed']).to.equal('true');
  });

  it('scopes keys to the subject and the organization', async () => {
    const other = await h.createOrganization('enterprise');
    await h.deps.store.grants.grant({ organizationId: org.id, subject: 'bob', isDefault: false });
    const bob = `Bearer ${await h.token({ sub: 'bob' })}`;
    const a = await create({ name: 'Scoped', templateId: 'tpl_web' }, 'key-scoped-000001');
    const b = await create({ name: 'Scoped', templateId: 'tpl_web' }, 'key-scoped-000001', bob);
    const c = await create(
      { name: 'Scoped', templateId: 'tpl_web' },
      'key-scoped-000001',
      auth,
      `/api/v1/organizations/${other.id}/registrations`,
    );
    expect([a.status, b.status, c.status]).to.deep.equal([201, 201, 201]);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).to.equal(3);
    expect(b.headers['idempotent-replayed']).to.equal(undefined);
  });

  it('releases the key when the request fails, so a corrected retry succeeds', async () => {
    const bad = await create({ name: 'Broken', templateId: 'tpl_web', status: 'active' }, 'key-release-00001');
    expect(bad.status).to.equal(422);
    expect(bad.body.error.code).to.equal('validation_failed');
    const fixed = await create({ name: 'Broken', templateId: 'tpl_web' }, 'key-release-00001');
    expect(fixed.status).to.equal(201);
    expect(fixed.headers['idempotent-replayed']).to.equal(undefined);
  });

  it('also covers change-set proposals', async () => {
    const active = await seedRegistration(h, org, { status: 'active' });
    const to = `/api/v1/organizations/${org.id}/registrations/${active.id}/change-sets`;
    const body = { changes: { contacts: ['ops@example.com'] } };
    const first = await create(body, 'key-change-set-001', auth, to);
    const retry = await create(body, 'key-change-set-001', auth, to);
    expect([first.status, retry.status]).to.deep.equal([201, 201]);
    expect(retry.body.id).to.equal(first.body.id);
  });

  it('answers 400 for a key that is too short, has a comma (sent twice) or is not visible ASCII', async () => {
    for (const key of ['"short"', 'a, b-0000000000', 'spaces in the key', '"ab\\"cdefghij"']) {
      const res = await create({ name: 'Bad key', templateId: 'tpl_web' }, key);
      expect(res.status, key).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).to.equal(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(parseIdempotencyKey('plain-token-1234')).to.equal('plain-token-1234');
  });
});
