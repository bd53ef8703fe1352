/** Whether a registration's client at the authorization server is up to date, pending, or failed (shown to reviewers). */
import type { Store } from '../../deps.js';
import type { OutboxStep, ProvisioningStatus } from './provisioning.model.js';

export interface ProvisioningState {
  status: ProvisioningStatus;
  /** The authorization server's client, when registered. */
  clientId?: string;
  deleted?: boolean;
  steps: Pick<OutboxStep, 'kind' | 'revision' | 'status' | 'attempts' | 'lastError' | 'nextAttemptAt'>[];
}

/** A registration's provisioning status from its steps: none, failed if any failed, pending until all are done. */
export function statusOfSteps(steps: readonly Pick<OutboxStep, 'status'>[]): ProvisioningStatus {
  if (steps.length === 0) return 'none';
  if (steps.some((s) => s.status === 'failed')) return 'failed';
  return steps.some((s) => s.status !== 'done') ? 'pending' : 'done';
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
  const status = statusOfSteps(steps);
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
