/**
 * THE list of repositories (docs/architecture.md §1.9). Each entry names its embedded and mongo factories and the mongoose
 * schemas whose collections `db:migrate` creates; the `Store` type, both stores, the migration's collections and
 * the contract suite's registry are all derived from it. Adding a repository is one entry here (plus its contract).
 */
import type { Connection, Schema } from 'mongoose';
import type { WriteLocks } from '../db/write-locks.js';
import { createMemoryOrganizationRepository } from '../components/organizations/organizations.repository.js';
import { createMongoOrganizationRepository } from '../components/organizations/organizations.mongo.js';
import { organizationSchema } from '../components/organizations/organizations.schema.js';
import { createMemoryGrantRepository } from '../components/grants/grants.repository.js';
import { createMongoGrantRepository } from '../components/grants/grants.mongo.js';
import { grantSchema, subjectDefaultSchema } from '../components/grants/grants.schema.js';
import { createMemoryRegistrationRepository } from '../components/registrations/registrations.repository.js';
import { createMongoRegistrationRepository } from '../components/registrations/registrations.mongo.js';
import { registrationSchema } from '../components/registrations/registrations.schema.js';
import { registrationDirectorySchema } from '../components/registrations/registration-directory.schema.js';
import { dueItemSchema } from '../components/outbox/due-items.schema.js';
import { createMemoryChangeSetRepository } from '../components/change-sets/change-sets.repository.js';
import { createMongoChangeSetRepository } from '../components/change-sets/change-sets.mongo.js';
import { changeSetSchema } from '../components/change-sets/change-sets.schema.js';
import { createMemoryIdempotencyRepository } from '../components/idempotency/idempotency.repository.js';
import { createMongoIdempotencyRepository } from '../components/idempotency/idempotency.mongo.js';
import { idempotencySchema } from '../components/idempotency/idempotency.schema.js';
import { idempotencyResponseSchema } from '../components/idempotency/idempotency-responses.schema.js';
import { createMemoryRateLimitStore } from '../components/rate-limits/rate-limits.repository.js';
import { createMongoRateLimitStore } from '../components/rate-limits/rate-limits.mongo.js';
import { createMemoryAuditRepository } from '../components/audit/audit.repository.js';
import { createMongoAuditRepository } from '../components/audit/audit.mongo.js';
import { auditSchema } from '../components/audit/audit.schema.js';
import { createMemoryCommentRepository } from '../components/comments/comments.repository.js';
import { createMongoCommentRepository } from '../components/comments/comments.mongo.js';
import { commentSchema } from '../components/comments/comments.schema.js';
import { createMemoryProvisioningRepository } from '../components/provisioning/provisioning.repository.js';
import { createMongoProvisioningRepository } from '../components/provisioning/provisioning.mongo.js';
import {
  provisionedClientSchema,
  provisioningDueSchema,
  provisioningStepListSchema,
  provisioningStepSchema,
} from '../components/provisioning/provisioning.schema.js';
import { createMemorySecretNoticeRepository } from '../components/secrets/secret-notices.repository.js';
import { createMongoSecretNoticeRepository, secretNoticeSchema } from '../components/secrets/secret-notices.mongo.js';
import { createMemoryWebhookRepository } from '../components/webhooks/webhooks.repository.js';
import { createMongoWebhookRepository } from '../components/webhooks/webhooks.mongo.js';
import { createMemoryWebhookDeliveryRepository } from '../components/webhooks/webhook-deliveries.repository.js';
import { createMongoWebhookDeliveryRepository } from '../components/webhooks/webhook-deliveries.mongo.js';
import {
  webhookDeliveryLogSchema,
  webhookDueSchema,
  webhookInboxSchema,
  webhookSubscriptionsSchema,
} from '../components/webhooks/webhooks.schema.js';

/** What a factory gets: the clock for timestamps the store sets itself; on mongo, the connection and write locks. */
interface MemoryContext {
  clock: () => Date;
}
interface MongoContext extends MemoryContext {
  connection: Connection;
  locks: WriteLocks;
}

export interface RepositoryDefinition<T extends object> {
  memory(context: MemoryContext): T;
  mongo(context: MongoContext): T;
  /** The mongoose schemas of its collections (indexes for `db:migrate`, emptied by the test reset). */
  schemas: readonly Schema[];
}

/** Ties both factories to one interface type `T`, so the two implementations cannot drift apart. */
function repository<T extends object>(definition: RepositoryDefinition<T>): RepositoryDefinition<T> {
  return definition;
}

export const REPOSITORIES = {
  organizations: repository({
    memory: ({ clock }) => createMemoryOrganizationRepository({ clock }),
    mongo: ({ connection, clock }) => createMongoOrganizationRepository(connection, { clock }),
    schemas: [organizationSchema],
  }),
  grants: repository({
    memory: ({ clock }) => createMemoryGrantRepository({ clock }),
    mongo: ({ connection, clock }) => createMongoGrantRepository(connection, { clock }),
    schemas: [grantSchema, subjectDefaultSchema],
  }),
  registrations: repository({
    memory: () => createMemoryRegistrationRepository(),
    mongo: ({ connection, locks }) => createMongoRegistrationRepository(connection, locks),
    // The outbox's due items, which change sets use too, are listed once: here.
    schemas: [registrationSchema, registrationDirectorySchema, dueItemSchema],
  }),
  changeSets: repository({
    memory: () => createMemoryChangeSetRepository(),
    mongo: ({ connection, locks }) => createMongoChangeSetRepository(connection, locks),
    schemas: [changeSetSchema],
  }),
  idempotency: repository({
    memory: () => createMemoryIdempotencyRepository(),
    mongo: ({ connection, locks }) => createMongoIdempotencyRepository(connection, locks),
    schemas: [idempotencySchema, idempotencyResponseSchema],
  }),
  // Its collection is not a mongoose schema: store/collections.ts declares its indexes.
  rateLimits: repository({
    memory: ({ clock }) => createMemoryRateLimitStore(() => clock().getTime()),
    mongo: ({ connection }) => createMongoRateLimitStore(connection),
    schemas: [],
  }),
  /** Append-only audit log of every transition and admin change. */
  audit: repository({
    memory: ({ clock }) => createMemoryAuditRepository({ clock }),
    mongo: ({ connection, clock }) => createMongoAuditRepository(connection, { clock }),
    schemas: [auditSchema],
  }),
  /** Internal (reviewer/admin) comments on registrations. */
  comments: repository({
    memory: () => createMemoryCommentRepository(),
    mongo: ({ connection }) => createMongoCommentRepository(connection),
    schemas: [commentSchema],
  }),
  /** The provisioning outbox and the clients provisioned at the authorization server. */
  provisioning: repository({
    memory: () => createMemoryProvisioningRepository(),
    mongo: ({ connection, locks }) => createMongoProvisioningRepository(connection, locks),
    schemas: [provisioningStepSchema, provisioningDueSchema, provisioningStepListSchema, provisionedClientSchema],
  }),
  /** Organizations' webhook subscriptions. */
  webhooks: repository({
    memory: () => createMemoryWebhookRepository(),
    mongo: ({ connection, locks }) => createMongoWebhookRepository(connection, locks),
    schemas: [webhookSubscriptionsSchema],
  }),
  /** Webhook events waiting to be fanned out, and each webhook's deliveries with their attempts. */
  webhookDeliveries: repository({
    memory: () => createMemoryWebhookDeliveryRepository(),
    mongo: ({ connection, locks }) => createMongoWebhookDeliveryRepository(connection, locks),
    schemas: [webhookInboxSchema, webhookDeliveryLogSchema, webhookDueSchema],
  }),
  /** When client secrets' expiry notices are due (10-minute buckets read by `_id`). */
  secretNotices: repository({
    memory: () => createMemorySecretNoticeRepository(),
    mongo: ({ connection }) => createMongoSecretNoticeRepository(connection),
    schemas: [secretNoticeSchema],
  }),
};

export type RepositoryName = keyof typeof REPOSITORIES;

/** Every repository by name, typed by its interface. */
export type Repositories = {
  [K in RepositoryName]: (typeof REPOSITORIES)[K] extends RepositoryDefinition<infer T> ? T : never;
};

/** Builds every repository of the list with `make` (the embedded or the mongo factory, wrapped as the store needs). */
export function buildRepositories(make: <T extends object>(definition: RepositoryDefinition<T>) => T): Repositories {
  const built: Partial<Record<RepositoryName, unknown>> = {};
  for (const name of Object.keys(REPOSITORIES) as RepositoryName[])
    built[name] = make(REPOSITORIES[name] as RepositoryDefinition<object>);
  return built as Repositories;
}
