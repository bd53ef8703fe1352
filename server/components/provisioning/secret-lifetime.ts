/**
 * How long a registration's client secret lives: its policy profile's `maxSecretLifetimeDays` from the moment it
 * is issued (absent: forever), and whether its client authenticates with a secret at all.
 */
import type { SecretNotice } from '../secrets/secret-notices.repository.js';
import { effectiveConfig } from '../policy/effective-config.js';
import { findPolicyProfile } from '../policy-profiles/policy-profiles.data.js';
import type { Registration } from '../registrations/registrations.model.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Token endpoint authentication methods that use the client secret (RFC 7591 §2, OIDC Core §9). */
const SECRET_METHODS: ReadonlySet<string> = new Set(['client_secret_basic', 'client_secret_post', 'client_secret_jwt']);

type SecretSubject = Pick<Registration, 'clientType' | 'applicationType' | 'config' | 'policyProfileId'>;

export function usesClientSecret(registration: SecretSubject): boolean {
  if (registration.clientType !== 'confidential') return false;
  const config = effectiveConfig(registration.config, registration.clientType, registration.applicationType);
  return SECRET_METHODS.has(config.tokenEndpointAuthMethod);
}

/** When a secret issued at `issuedAt` expires under the registration's profile; undefined: never. */
export function secretExpiry(registration: SecretSubject, issuedAt: Date): Date | undefined {
  const days = findPolicyProfile(registration.policyProfileId)?.constraints.maxSecretLifetimeDays;
  return days === undefined ? undefined : new Date(issuedAt.getTime() + days * DAY_MS);
}

/** RFC 7591's `client_secret_expires_at`: epoch seconds, 0 for never. */
export function epochSeconds(at: Date | undefined): number {
  return at === undefined ? 0 : Math.floor(at.getTime() / 1000);
}

/** The Date of an RFC 7591 `client_secret_expires_at` (0 or absent: never). */
export function fromEpochSeconds(seconds: number | undefined): Date | undefined {
  return seconds === undefined || seconds === 0 ? undefined : new Date(seconds * 1000);
}

/**
 * The notices still ahead for a secret expiring at `expiresAt` (when it is handed to the requester or rotated):
 * `secret.expiring` 7 days and 1 day before, `secret.expired` at it (secrets/secret-notices.ts emits them).
 */
export function secretNoticesFor(
  registration: { organizationId: string; id: string },
  expiresAt: Date,
  now: Date,
): SecretNotice[] {
  const notice = (type: SecretNotice['type'], beforeMs: number): SecretNotice => ({
    organizationId: registration.organizationId,
    registrationId: registration.id,
    type,
    at: new Date(expiresAt.getTime() - beforeMs),
    expiresAt,
  });
  return [notice('secret.expiring', 7 * DAY_MS), notice('secret.expiring', DAY_MS), notice('secret.expired', 0)].filter(
    (n) => n.at > now,
  );
}
