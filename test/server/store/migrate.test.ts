/** `npm run db:migrate`: indexes and platform data, idempotent; tenant key first in every compound index. */
import { expect } from 'chai';
import type { Connection } from 'mongoose';
import { STORE_COLLECTIONS } from '../../../server/store/collections.js';
import { connectMongo } from '../../../server/db/connect.js';
import { migrate } from '../../../server/store/migrate.js';
import { POLICY_PROFILES } from '../../../server/components/policy-profiles/policy-profiles.data.js';
import { TEMPLATES } from '../../../server/components/templates/templates.data.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from '../mongo/mongo-test-db.js';

/**
 * Compound indexes allowed NOT to lead with organizationId, each with its reason. Add one only for a query that is
 * cross-organization by design (internal surface), never for a tenant-facing query.
 */
const CROSS_ORGANIZATION_INDEXES: Record<string, string> = {
  'audit_log at,_id': "the reviewers' audit feed across organizations (internal surface only)",
  'registrations reviewQueueAt,_id': "the reviewers' queue across organizations (internal surface only)",
  'rate_limit_slots key,window':
    'rate-limit slots are keyed by a hash of subject and organization (raw ids are never stored there)',
  'outbox_due holder,at,_id': "the outbox drain's due items, oldest first across organizations (no tenant query)",
  'provisioning_due dueAt,_id': "the provisioning worker's due steps, across organizations (no tenant query)",
  'webhook_inbox timestamp,_id':
    "the webhook dispatcher's events not fanned out yet, across organizations (no tenant query)",
};

describe('the store indexes', () => {
  it('put organizationId first in every compound index, except the listed cross-organization ones', () => {
    const offenders: string[] = [];
    for (const [collection, specs] of STORE_COLLECTIONS) {
      for (const spec of specs) {
        const fields = Object.keys(spec.fields);
        const name = `${collection} ${fields.join(',')}`;
        if (fields.length > 1 && fields[0] !== 'organizationId' && !(name in CROSS_ORGANIZATION_INDEXES))
          offenders.push(name);
      }
    }
    expect(offenders, 'compound indexes must lead with organizationId (docs/architecture.md §1.9)').to.deep.equal([]);
  });

  it('include a TTL index for idempotency records and responses and rate-limit counters', () => {
    const ttl = [...STORE_COLLECTIONS].flatMap(([collection, specs]) =>
      specs.filter((s) => s.options.expireAfterSeconds !== undefined).map(() => collection),
    );
    expect(ttl.sort()).to.deep.equal(['idempotency_records', 'idempotency_responses', 'rate_limit_slots']);
  });
});

describeWithMongo('migrate', (uri) => {
  const dbName = uniqueDbName();
  let connection: Connection;

  before(async () => {
    connection = await connectMongo(uri, { dbName });
  });
  after(async () => {
    await connection.close();
    await dropDatabase(uri, dbName);
  });

  it('creates every index and writes the platform data on the first run', async () => {
    const report = await migrate(connection);
    const expected = [...STORE_COLLECTIONS].flatMap(([collection, specs]) => specs.map(() => collection));
    expect(report.indexesCreated).to.have.length(expected.length);
    expect(report.platformDocumentsChanged).to.equal(POLICY_PROFILES.length + TEMPLATES.length);
    const idempotencyIndexes = await connection.db!.collection('idempotency_records').indexes();
    const unique = idempotencyIndexes.find((i) => i.unique);
    expect(Object.keys(unique?.key ?? {})).to.deep.equal(['organizationId', 'subject', 'key']);
    const profiles = await connection.db!.collection('policy_profiles').find({}).sort({ _id: 1 }).toArray();
    expect(profiles.map((p) => p._id)).to.deep.equal(POLICY_PROFILES.map((p) => p.id).sort());
  });

  it('creates and changes nothing when run again', async () => {
    const indexesBefore = await connection.db!.collection('registrations').indexes();
    const report = await migrate(connection);
    expect(report.indexesCreated).to.deep.equal([]);
    expect(report.platformDocumentsChanged).to.equal(0);
    expect(await connection.db!.collection('registrations').indexes()).to.deep.equal(indexesBefore);
  });

  it('puts back platform data that was edited or added by hand', async () => {
    await connection
      .db!.collection<{ _id: string }>('templates')
      .updateOne({ _id: TEMPLATES[0].id }, { $set: { name: 'tampered' } });
    await connection.db!.collection<{ _id: string }>('templates').insertOne({ _id: 'tpl_stray' });
    expect((await migrate(connection)).platformDocumentsChanged).to.equal(2);
    const restored = await connection
      .db!.collection<{ _id: string; name?: string }>('templates')
      .findOne({ _id: TEMPLATES[0].id });
    expect(restored?.name).to.equal(TEMPLATES[0].name);
  });
});
