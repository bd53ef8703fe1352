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

export async function provisioningStateOf(
  store: Pick<Store, 'provisioning'>,
  organizationId: string,
  registrationId: string,
): Promise<ProvisioningState> {
  const [steps, client] = await Promise.all([
    store.provisioning.listSteps(organizationId, registrationId),
    store.provisioning.getClient(organizationId, registrationId),
  ]);
  const status: ProvisioningStatus =
    steps.length === 0
      ? 'none'
      : steps.some((s) => s.status === 'failed')
        ? 'failed'
        : steps.some((s) => s.status !== 'done')
          ? 'pending'
          : 'done';
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
