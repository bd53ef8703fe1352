/**
 * What the secret actions reach the authorization server with, from the PROVISIONING_* settings: the RFC 7592
 * client and the provisioning key (sealed secrets and registration access tokens), and the client provisioned for
 * a registration. Each refuses with a 409 that says what is missing, so a misconfiguration is never a 500.
 */
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { createRegistrationClient, type RegistrationClient } from '../provisioning/registration-client.js';
import { createTokenCipher, type TokenCipher } from '../provisioning/token-cipher.js';
import type { ProvisionedClient } from '../provisioning/provisioning.model.js';

export type SecretDeps = Pick<ApiDeps, 'store' | 'clock' | 'config'> & Partial<Pick<ApiDeps, 'logger'>>;

/** The provisioning key's cipher (sealed secrets are unsealed with it). */
export function secretCipherOf(config: SecretDeps['config']): TokenCipher {
  if (!config.provisioningEncryptionKey)
    throw apiError(
      'conflict',
      'The service has no provisioning key (PROVISIONING_ENCRYPTION_KEY) to unseal secrets with.',
    );
  return createTokenCipher(config.provisioningEncryptionKey);
}

export function registrationClientOf(config: SecretDeps['config']): RegistrationClient {
  if (!config.provisioningRegistrationEndpoint || !config.provisioningInitialAccessToken)
    throw apiError('conflict', 'The service is not connected to an authorization server (PROVISIONING_* settings).');
  return createRegistrationClient({
    endpoint: config.provisioningRegistrationEndpoint,
    initialAccessToken: config.provisioningInitialAccessToken,
  });
}

/** The registration's client at the authorization server and the token that manages it (RFC 7592 §1.1). */
export async function managedClientOf(
  deps: SecretDeps,
  cipher: TokenCipher,
  organizationId: string,
  registrationId: string,
): Promise<{ client: ProvisionedClient; token: string }> {
  const client = await deps.store.provisioning.getClient(organizationId, registrationId);
  if (!client || client.deletedAt)
    throw apiError('conflict', 'The client no longer exists at the authorization server.');
  return { client, token: cipher.decrypt(client.registrationAccessTokenEncrypted, registrationId) };
}
