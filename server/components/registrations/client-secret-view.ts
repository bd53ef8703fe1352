/** The public view of a registration's client secret state: dates and whether it was revealed, never the secret. */
import { hasPreviousSecret, isRevealable, type ClientSecretState } from '../provisioning/client-secret.model.js';

export interface ClientSecretView {
  issuedAt: string;
  expiresAt?: string;
  expired?: boolean;
  revealed: boolean;
  revealBefore?: string;
  previousExpiresAt?: string;
}

export function clientSecretView(secret: ClientSecretState, now: Date): ClientSecretView {
  return {
    issuedAt: secret.issuedAt.toISOString(),
    ...(secret.expiresAt && { expiresAt: secret.expiresAt.toISOString(), expired: secret.expiresAt <= now }),
    revealed: secret.revealedAt !== undefined,
    ...(isRevealable(secret, now) && secret.revealBy && { revealBefore: secret.revealBy.toISOString() }),
    ...(hasPreviousSecret(secret, now) && { previousExpiresAt: (secret.previousExpiresAt as Date).toISOString() }),
  };
}
