/**
 * A registration's client secret as this service follows it (docs/architecture.md §1.11): the authorization server
 * issues or accepts the secret and checks it; the registration records its lifecycle — when it was issued and
 * expires, whether it still waits to be revealed (sealed with the provisioning key, never in plain text), and how
 * long the previous one of a rotation keeps working. The secret's writes leave the registration's revision alone
 * (they change no field a client edits, so a pending change set stays valid); `version` orders them instead.
 */

/** The grace a rotation gives the previous secret when the caller names none (capped by the policy profile). */
export const DEFAULT_GRACE_SECONDS = 86_400;

/** How long a secret waits to be revealed before it is discarded (then only a rotation gives one). */
export const REVEAL_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long a rotation may take between its first write and its last (the push has a 5 s timeout): a rotation still
 * pending after that was cut off (a crash, the database gone) and the next rotation resumes it.
 */
export const ROTATION_IN_FLIGHT_MS = 60_000;

/** A rotation between its push to the authorization server and its record here (see rotate-secret.service.ts). */
export interface PendingRotation {
  /** The new secret, sealed; the push sends it, a resumed rotation sends it again. */
  sealed: string;
  startedAt: Date;
  expiresAt?: Date;
  previousExpiresAt?: Date;
}

export interface ClientSecretState {
  /** Counts the secret's writes: each one is conditional on the version it read (compare-and-set). */
  version: number;
  /** When the current secret was issued (registered, or set by a rotation). */
  issuedAt: Date;
  /** When the authorization server stops accepting it (`client_secret_expires_at`); absent: never. */
  expiresAt?: Date;
  /** The current secret sealed (token-cipher.ts, bound to the registration) until revealed once or discarded. */
  sealed?: string;
  /** Until when `sealed` may be revealed; after it the secret is discarded unrevealed. */
  revealBy?: Date;
  /** When the requester received the current secret (revealed, or returned by the rotation that made it). */
  revealedAt?: Date;
  /** The secret a rotation replaced keeps working until then (the grace); absent when none does. */
  previousExpiresAt?: Date;
  pending?: PendingRotation;
}

/** Whether the current secret can still be revealed at `now`. */
export function isRevealable(secret: ClientSecretState | undefined, now: Date): boolean {
  return secret?.sealed !== undefined && (secret.revealBy === undefined || now < secret.revealBy);
}

/** Whether a previous secret still works at `now` (a rotation's grace is running). */
export function hasPreviousSecret(secret: ClientSecretState | undefined, now: Date): boolean {
  return secret?.previousExpiresAt !== undefined && now < secret.previousExpiresAt;
}

/** The additional data sealed secrets are bound to: the registration, and what the ciphertext is. */
export function sealedSecretBinding(registrationId: string): string {
  return `${registrationId}#client_secret`;
}
