/** The provisioning status the self-service read shows: known without a query before the first approval. */
import type { Store } from '../../deps.js';
import { statusOfSteps } from '../provisioning/provisioning-state.js';
import type { ProvisioningStatus } from '../provisioning/provisioning.model.js';
import type { Registration } from './registrations.model.js';
import { PRE_APPROVAL_STATUSES } from './state-machine.js';

/** A registration never approved has no step (no query); any other costs one read of its steps. */
export async function provisioningStatusOf(
  store: Pick<Store, 'provisioning'>,
  record: Pick<Registration, 'organizationId' | 'id' | 'status'>,
): Promise<ProvisioningStatus> {
  if (PRE_APPROVAL_STATUSES.has(record.status)) return 'none';
  return statusOfSteps(await store.provisioning.listSteps(record.organizationId, record.id));
}
