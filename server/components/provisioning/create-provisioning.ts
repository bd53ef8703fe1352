/**
 * Provisioning from the settings: undefined when PROVISIONING_REGISTRATION_ENDPOINT is unset; otherwise the worker
 * (RFC 7591/7592 client, AES-GCM cipher for registration access tokens) and the hook decisions enqueue through.
 */
import type { ApiDeps } from '../../deps.js';
import { createProvisioningHook, type ProvisioningHook } from './provisioning-hook.js';
import { createProvisioningWorker, type ProvisioningSettled, type ProvisioningWorker } from './provisioning-worker.js';
import { createRegistrationClient, type RegistrationClient } from './registration-client.js';
import { createTokenCipher } from './token-cipher.js';

export interface Provisioning {
  hook: ProvisioningHook;
  worker: ProvisioningWorker;
}

export function createProvisioning(
  deps: ApiDeps,
  options: { client?: RegistrationClient; onSettled?: (settled: ProvisioningSettled) => Promise<void> } = {},
): Provisioning | undefined {
  const { config } = deps;
  if (!config.provisioningRegistrationEndpoint) return undefined;
  // loadServiceConfig already refused an endpoint without its token and key.
  const client =
    options.client ??
    createRegistrationClient({
      endpoint: config.provisioningRegistrationEndpoint,
      initialAccessToken: config.provisioningInitialAccessToken as string,
    });
  const worker = createProvisioningWorker({
    store: deps.store,
    clock: deps.clock,
    client,
    cipher: createTokenCipher(config.provisioningEncryptionKey as string),
    retryS: config.provisioningRetryS,
    maxAttempts: config.provisioningMaxAttempts,
    logger: deps.logger,
    metrics: deps.metrics,
    ...(options.onSettled && { onSettled: options.onSettled }),
  });
  return { worker, hook: createProvisioningHook({ store: deps.store, clock: deps.clock, worker }) };
}
