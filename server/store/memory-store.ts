/** The embedded in-process store (the default when MONGODB_URI is unset): every repository in memory. */
import type { Store } from '../deps.js';
import { createMemoryOrganizationRepository } from '../components/organizations/organizations.repository.js';
import { createMemoryGrantRepository } from '../components/grants/grants.repository.js';
import { createMemoryRegistrationRepository } from '../components/registrations/registrations.repository.js';
import { createMemoryChangeSetRepository } from '../components/change-sets/change-sets.repository.js';
import { createMemoryIdempotencyRepository } from '../components/idempotency/idempotency.repository.js';
import { createMemoryRateLimitStore } from '../middleware/rate-limit-store.js';
import { createMemoryAuditRepository } from '../components/audit/audit.repository.js';
import { createMemoryCommentRepository } from '../components/comments/comments.repository.js';
import { createMemoryProvisioningRepository } from '../components/provisioning/provisioning.repository.js';

export function createMemoryStore(options: { clock?: () => Date } = {}): Store {
  const clock = options.clock ?? (() => new Date());
  return {
    kind: 'memory',
    organizations: createMemoryOrganizationRepository({ clock }),
    grants: createMemoryGrantRepository({ clock }),
    registrations: createMemoryRegistrationRepository(),
    changeSets: createMemoryChangeSetRepository(),
    idempotency: createMemoryIdempotencyRepository(),
    rateLimits: createMemoryRateLimitStore(() => clock().getTime()),
    audit: createMemoryAuditRepository({ clock }),
    comments: createMemoryCommentRepository(),
    provisioning: createMemoryProvisioningRepository(),
    // Nothing to reach: the memory store is ready as long as the process runs.
    ping: async () => undefined,
    close: async () => undefined,
  };
}
