/**
 * Same answer on both stores for odd input, property-based: fast-check drives random registration
 * bodies (odd strings, lone surrogates, JWK member names MongoDB cannot store, nested operator objects) through the
 * API on the embedded store and, when MONGODB_URI is set, on the mongo store too. Both must give the same status,
 * never a 5xx, and what a 201 echoes must be exactly what a later GET reads back on each store, and the same on both.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { migrate } from '../../../server/store/migrate.js';
import type { Store } from '../../../server/deps.js';
import { createMemoryStore } from '../../../server/store/memory-store.js';
import { createMongoStore } from '../../../server/store/mongo-store.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS } from '../api/api-fixtures.js';
import { dropDatabase, MONGODB_URI, uniqueDbName } from '../mongo/mongo-test-db.js';

interface Target {
  h: ServiceHarness;
  org: Organization;
  auth: string;
}

const oddString = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
  // Surrogates alone and in pairs, NUL and the other C0 controls.
  fc.string({
    unit: fc.integer({ min: 0xd7fe, max: 0xe001 }).map((c) => String.fromCharCode(c)),
    minLength: 1,
    maxLength: 4,
  }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x20 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 4 }),
);
const memberName = fc.oneof(
  fc.constantFrom(
    'kty',
    'kid',
    'n',
    'e',
    'use',
    'alg',
    'x5c',
    '$gt',
    '$where',
    'a.b',
    '.',
    '\u0000',
    'x\u0000y',
    '',
    ' ',
    '\ud800',
  ),
  oddString,
);
const memberValue = fc.oneof(
  oddString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(memberName, fc.oneof(oddString, fc.integer()), { maxKeys: 3 }),
  fc.array(oddString, { maxLength: 3 }),
);
const jwk = fc
  .tuple(fc.constantFrom('RSA', 'EC', 'OKP', ''), fc.dictionary(memberName, memberValue, { maxKeys: 5 }))
  .map(([kty, rest]) => ({ ...rest, kty }));
const body = fc.record(
  {
    name: oddString,
    description: oddString,
    templateId: fc.constantFrom('tpl_web', 'tpl_m2m', 'tpl_spa'),
    config: fc.record(
      {
        redirectUris: fc.array(fc.oneof(fc.constant('https://app.example.com/cb'), oddString), { maxLength: 2 }),
        jwks: fc.record({ keys: fc.array(jwk, { maxLength: 2 }) }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['name'] },
);

/** The parts of a registration that do not depend on which store or organization holds it. */
function portable(registration: Record<string, unknown>): Record<string, unknown> {
  const varying = new Set(['id', 'organizationId', 'createdAt', 'updatedAt', 'createdBy']);
  return Object.fromEntries(Object.entries(registration).filter(([key]) => !varying.has(key)));
}

async function create(
  target: Target,
  payload: unknown,
): Promise<{ status: number; stored?: Record<string, unknown>; error?: unknown }> {
  const url = `/api/v1/organizations/${target.org.id}/registrations`;
  const res = await target.h.request
    .post(url)
    .set('Authorization', target.auth)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(payload));
  expect(res.status, JSON.stringify(res.body)).to.be.below(500);
  if (res.status !== 201)
    return { status: res.status, error: { code: res.body.error?.code, fields: res.body.error?.fields } };
  const read = await target.h.request.get(`${url}/${res.body.id}`).set('Authorization', target.auth);
  expect(read.status).to.equal(200);
  // Never stored altered: what the 201 said is what the store holds, under the same ETag.
  expect(read.body).to.deep.equal(res.body);
  expect(read.headers.etag).to.equal(res.headers.etag);
  return { status: 201, stored: portable(read.body) };
}

describe('random registration bodies on both stores (property)', function () {
  this.timeout(120_000);
  const targets: Target[] = [];
  const dbName = uniqueDbName();

  before(async () => {
    const stores: Store[] = [createMemoryStore()];
    if (MONGODB_URI) {
      const mongo = await createMongoStore(MONGODB_URI, { dbName });
      await migrate(mongo.connection);
      stores.push(mongo);
    } else {
      console.log('  store parity: embedded store only (MONGODB_URI is unset)');
    }
    for (const store of stores) {
      const h = await startService({ store, env: NO_RATE_LIMITS });
      targets.push({ h, org: await h.createOrganization('enterprise'), auth: `Bearer ${await h.token()}` });
    }
  });
  after(async () => {
    for (const { h } of targets) await h.close();
    if (MONGODB_URI) await dropDatabase(MONGODB_URI, dbName);
  });

  it('gives the same status and stores the same value on every store, never altered and never a 5xx', async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const results = [];
        for (const target of targets) results.push(await create(target, payload));
        const [first, ...rest] = results;
        for (const other of rest) expect(other, JSON.stringify(payload)).to.deep.equal(first);
        if (first?.status === 201) created += 1;
      }),
      { numRuns: MONGODB_URI ? 80 : 150 },
    );
    // The generator must reach the store, not only the validator.
    expect(created).to.be.above(0);
  });
});
