/**
 * The explicit migration step (docs/architecture.md §1.9, `npm run db:migrate`): creates every index and writes the platform
 * data, idempotently — a second run creates nothing and changes nothing. Never raced at boot by N instances.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Connection } from 'mongoose';
import { POLICY_PROFILES } from '../components/policy-profiles/policy-profiles.data.js';
import { TEMPLATES } from '../components/templates/templates.data.js';
import { STORE_COLLECTIONS } from './collections.js';
import { readSchemaState, recordSchemaVersion } from './schema-version.js';
import { upgradeOutbox } from './upgrade-outbox.js';
import { upgradeProvisioning } from './upgrade-provisioning.js';
import { upgradeDirectories } from './upgrade-directories.js';
import { giveGrantsRoles, GRANT_ROLES_SCHEMA_VERSION } from '../components/grants/grant-roles.migration.js';
import { followProvisionedSecrets } from '../components/registrations/client-secrets.migration.js';
import {
  queueAwaitingReview,
  REVIEW_QUEUE_SCHEMA_VERSION,
} from '../components/registrations/review-queue.migration.js';

export interface MigrationReport {
  /** `collection.index_name` of every index this run created. */
  indexesCreated: string[];
  /** TTL indexes the server could not create (FerretDB 1.24); plain indexes stand in, expiry is enforced in code. */
  ttlUnsupported: string[];
  /** Platform documents inserted, replaced or removed. */
  platformDocumentsChanged: number;
  /** Grants stored before roles given the `owner` role (grants/grant-roles.migration.ts). */
  grantsGivenRoles: number;
  /** Registered clients whose secret this service now follows (registrations/client-secrets.migration.ts). */
  secretsFollowed: number;
  /** Registrations whose place in the review queue's index was written (registrations/review-queue.migration.ts). */
  reviewQueueUpdated: number;
  /** Outbox due items written for what a build before schema version 5 left pending (upgrade-outbox.ts). */
  outboxItemsWritten: number;
  /** Provisioning steps listed and, when unfinished, marked due for a build of schema version 5 (upgrade-provisioning.ts). */
  provisioningStepsUpgraded: number;
  /** Organizations given their registration directory for a build of schema version 5 (upgrade-directories.ts). */
  directoriesWritten: number;
  /** Whether this run wrote the schema version record (false when it was already current). */
  schemaVersionRecorded: boolean;
}

/** Error code 238 is NotImplemented: FerretDB 1.24 has no TTL (`expireAfterSeconds`) nor partial indexes. */
function isNotImplemented(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 238;
}

async function indexNames(connection: Connection, collection: string): Promise<Set<string>> {
  try {
    const indexes = await connection.db!.collection(collection).indexes();
    return new Set(indexes.map((index) => String(index.name)));
  } catch {
    return new Set(); // the collection does not exist yet
  }
}

async function createIndexes(connection: Connection, report: MigrationReport): Promise<void> {
  for (const [collection, specs] of STORE_COLLECTIONS) {
    const before = await indexNames(connection, collection);
    const native = connection.db!.collection(collection);
    for (const spec of specs) {
      try {
        await native.createIndex(spec.fields, spec.options);
      } catch (error) {
        if (!(isNotImplemented(error) && spec.options.expireAfterSeconds !== undefined)) throw error;
        const { expireAfterSeconds: _ttl, ...plain } = spec.options;
        await native.createIndex(spec.fields, plain);
        report.ttlUnsupported.push(`${collection}.${Object.keys(spec.fields).join('_')}`);
      }
    }
    for (const name of await indexNames(connection, collection)) {
      if (!before.has(name) && name !== '_id_') report.indexesCreated.push(`${collection}.${name}`);
    }
  }
}

async function writeCatalogue(connection: Connection, name: string, items: readonly { id: string }[]): Promise<number> {
  const collection = connection.db!.collection<{ _id: string }>(name);
  let changed = 0;
  for (const item of items) {
    const { id, ...rest } = structuredClone(item) as { id: string } & Record<string, unknown>;
    // Compared first: FerretDB 1.24 reports an identical replacement as modified, and "nothing changes" must hold.
    if (isDeepStrictEqual(await collection.findOne({ _id: id }), { _id: id, ...rest })) continue;
    await collection.replaceOne({ _id: id }, rest, { upsert: true });
    changed += 1;
  }
  const removed = await collection.deleteMany({ _id: { $nin: items.map((item) => item.id) } });
  return changed + removed.deletedCount;
}

export async function migrate(connection: Connection): Promise<MigrationReport> {
  const report: MigrationReport = {
    indexesCreated: [],
    ttlUnsupported: [],
    platformDocumentsChanged: 0,
    outboxItemsWritten: 0,
    provisioningStepsUpgraded: 0,
    directoriesWritten: 0,
    grantsGivenRoles: 0,
    secretsFollowed: 0,
    reviewQueueUpdated: 0,
    schemaVersionRecorded: false,
  };
  const before = await readSchemaState(connection);
  await createIndexes(connection, report);
  // Only a database an older build wrote (or one never versioned) can hold what the upgrade turns into due items.
  if (before.version === null || before.version < 5) {
    report.outboxItemsWritten = await upgradeOutbox(connection);
    report.provisioningStepsUpgraded = await upgradeProvisioning(connection);
    report.directoriesWritten = await upgradeDirectories(connection);
  }
  // Only a database an older build wrote (or one never versioned) can hold grants without a role.
  if (before.version === null || before.version < GRANT_ROLES_SCHEMA_VERSION) {
    report.grantsGivenRoles = await giveGrantsRoles(connection);
    report.secretsFollowed = await followProvisionedSecrets(connection);
  }
  // Only a database an older build wrote can hold records without their place in the review queue's index: reading
  // every registration once is the migration's cost, not every start's (MIGRATE_ON_START runs this at each start).
  if (before.version === null || before.version < REVIEW_QUEUE_SCHEMA_VERSION)
    report.reviewQueueUpdated = await queueAwaitingReview(connection);
  report.platformDocumentsChanged += await writeCatalogue(connection, 'policy_profiles', POLICY_PROFILES);
  report.platformDocumentsChanged += await writeCatalogue(connection, 'templates', TEMPLATES);
  // Last, so a migration that failed half-way leaves the database reading as not migrated.
  report.schemaVersionRecorded = await recordSchemaVersion(connection);
  return report;
}
