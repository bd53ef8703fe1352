/**
 * The contract suite's registry: one contract per repository of server/store/repositories.ts. Its type is derived
 * from that list, so a repository added there without a contract here does not compile, and both stores run every
 * contract (memory.contract.test.ts, mongo.contract.test.ts).
 */
import type { Store } from '../../../server/deps.js';
import type { RepositoryName } from '../../../server/store/repositories.js';
import { auditContract } from './audit.contract.js';
import { changeSetsContract } from './change-sets.contract.js';
import { commentContract } from './comments.contract.js';
import { idempotencyContract } from './idempotency.contract.js';
import { organizationRepositoryContract } from './organizations.contract.js';
import { provisioningContract } from './provisioning.contract.js';
import { rateLimitsContract } from './rate-limits.contract.js';
import { registrationsContract } from './registrations.contract.js';
import { webhooksContract } from './webhooks.contract.js';
import { secretNoticesContract } from './secret-notices.contract.js';

type Contract = (implementation: string, makeStore: () => Promise<Store>) => void;

/** A contract, or the repository whose contract covers this one too (organizations and grants are tested together). */
const CONTRACTS: Record<RepositoryName, Contract | { coveredBy: RepositoryName }> = {
  organizations: organizationRepositoryContract,
  grants: { coveredBy: 'organizations' },
  registrations: registrationsContract,
  changeSets: changeSetsContract,
  idempotency: idempotencyContract,
  rateLimits: rateLimitsContract,
  audit: auditContract,
  comments: commentContract,
  provisioning: provisioningContract,
  webhooks: webhooksContract,
  webhookDeliveries: { coveredBy: 'webhooks' },
  secretNotices: secretNoticesContract,
};

/** Registers every contract against `makeStore` (a fresh, empty store per test). */
export function runContracts(implementation: string, makeStore: () => Promise<Store>): void {
  for (const contract of Object.values(CONTRACTS))
    if (typeof contract === 'function') contract(implementation, makeStore);
}
