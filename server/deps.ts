/**
 * What the service's parts are built from. `createApp(deps)` receives these; nothing reads globals.
 * Each repository interface lives beside its component (`components/<resource>/<resource>.repository.ts`),
 * with an embedded (memory) implementation now and a mongoose one behind the same interface.
 */
import type { Logger } from '../lib/logger.js';
import type { ServiceConfig } from './config.js';
import type { OrganizationRepository } from './components/organizations/organizations.repository.js';
import type { GrantRepository } from './components/grants/grants.repository.js';
import type { RegistrationRepository } from './components/registrations/registrations.repository.js';
import type { ChangeSetRepository } from './components/change-sets/change-sets.repository.js';
import type { IdempotencyRepository } from './components/idempotency/idempotency.repository.js';
import type { RateLimitStore } from './middleware/rate-limit-store.js';
// Issue #8 (reviewer side, engineer INTERNAL): the audit log and internal comments.
import type { AuditRepository } from './components/audit/audit.repository.js';
import type { CommentRepository } from './components/comments/comments.repository.js';
import type { ProvisioningRepository } from './components/provisioning/provisioning.repository.js';

/** Every repository the service uses: the only code that touches storage. */
export interface Store {
  kind: 'memory' | 'mongo';
  organizations: OrganizationRepository;
  grants: GrantRepository;
  registrations: RegistrationRepository;
  changeSets: ChangeSetRepository;
  idempotency: IdempotencyRepository;
  rateLimits: RateLimitStore;
  /** Append-only audit log of every transition and admin change (issue #8). */
  audit: AuditRepository;
  /** Internal (reviewer/admin) comments on registrations (issue #8). */
  comments: CommentRepository;
  /** The provisioning outbox and the clients provisioned at the authorization server (issue #8). */
  provisioning: ProvisioningRepository;
  /** Resolves when the store can serve requests; rejects with the reason otherwise (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface ApiDeps {
  config: ServiceConfig;
  store: Store;
  logger: Logger;
  /** Injected so tests can move time; defaults to `() => new Date()`. */
  clock: () => Date;
}
