/** Whether a registration's client at the authorization server is up to date, pending, or failed (shown to reviewers). */
import type { Store } from '../../deps.js';
import type { Registration } from '../registrations/registrations.model.js';
import { PRE_APPROVAL_STATUSES } from '../registrations/state-machine.js';
import type { OutboxStep, ProvisioningStatus } from './provisioning.model.js';

export interface ProvisioningState {
  status: ProvisioningStatus;
  /** The authorization server's client, when registered. */
  clientId?: string;
  deleted?: boolean;
  steps: Pick<OutboxStep, 'kind' | 'revision' | 'status' | 'attempts' | 'lastError' | 'nextAttemptAt'>[];
}

function statusOf(steps: readonly Pick<OutboxStep, 'status'>[]): ProvisioningStatus {
  if (steps.length === 0) return 'none';
  if (steps.some((s) => s.status === 'failed')) return 'failed';
  return steps.some((s) => s.status !== 'done') ? 'pending' : 'done';
}

/**
 * The status alone, for the self-service read: a registration never approved has no step (no query), any other
 * costs one read of its steps.
 */
export async function provisioningStatusOf(
  store: Pick<Store, 'provisioning'>,
  record: Pick<Registration, 'organizationId' | 'id' | 'status'>,
): Promise<ProvisioningStatus> {
  if (PRE_APPROVAL_STATUSES.has(record.status)) return 'none';
  return statusOf(await store.provisioning.listSteps(record.organizationId, record.id));
}

export async function provisioningStateOf(
  store: Pick<Store, 'provisioning'>,
  organizationId: string,
  registrationId: string,
): Promise<ProvisioningState> {
  const [steps, client] = await Promise.all([
    store.provisioning.listSteps(organizationId, registrationId),
    store.provisioning.getClient(organizationId, registrationId),
  ]);
  const status = statusOf(steps);
  return {
    status,
    ...(client && { clientId: client.clientId }),
    ...(client?.deletedAt && { deleted: true }),
    steps: steps.map(({ kind, revision, status: s, attempts, lastError, nextAttemptAt }) => ({
      kind,
      revision,
      status: s,
      attempts,
      nextAttemptAt,
      ...(lastError !== undefined && { lastError }),
    })),
  };
}
