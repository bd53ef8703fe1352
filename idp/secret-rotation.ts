/**
 * The rules of a client's secrets (issue #27; the request shapes are in idp/README.md "Client secrets"): what an RFC
 * 7592 PUT's `client_secret`, `client_secret_expires_at` and `client_secret_previous_expires_at` make of the secret a
 * client holds now — a new secret, its lifetime, and the replaced one kept for an overlap. Pure: times in epoch seconds.
 */

/** A client's secrets as its metadata keeps them. */
export interface ClientSecrets {
  client_secret?: string;
  /** RFC 7591 §3.2.1: 0 (or absent) = never. */
  client_secret_expires_at?: number;
  /** The replaced secret, accepted until `client_secret_previous_expires_at` (both absent when none is held). */
  client_secret_previous?: string;
  client_secret_previous_expires_at?: number;
}

/** The secret fields of a PUT body, as sent. */
export interface SecretRequest {
  client_secret?: unknown;
  client_secret_expires_at?: unknown;
  client_secret_previous_expires_at?: unknown;
}

const SECRET_LENGTH = { min: 16, max: 512 } as const;

const isTime = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The first thing wrong with the request's secret fields, as an `invalid_client_metadata` description. */
export function secretRequestProblem(request: SecretRequest): string | undefined {
  const { client_secret: secret } = request;
  if (
    secret !== undefined &&
    (typeof secret !== 'string' || secret.length < SECRET_LENGTH.min || secret.length > SECRET_LENGTH.max)
  )
    return `client_secret must be ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters`;
  for (const field of ['client_secret_expires_at', 'client_secret_previous_expires_at'] as const) {
    if (request[field] !== undefined && !isTime(request[field]))
      return `${field} must be a non-negative integer (epoch seconds)`;
  }
  return undefined;
}

/** Whether the request replaces the client's secret (a secret equal to the current one changes nothing, RFC 7592). */
export function isRotation(current: ClientSecrets, request: SecretRequest): boolean {
  return typeof request.client_secret === 'string' && request.client_secret !== current.client_secret;
}

/** The previous secret still held at `now`, or none once it expired. */
function heldPrevious(current: ClientSecrets, now: number): ClientSecrets {
  const { client_secret_previous: secret, client_secret_previous_expires_at: until } = current;
  return secret && until !== undefined && until > now
    ? { client_secret_previous: secret, client_secret_previous_expires_at: until }
    : {};
}

/** The secrets after a valid request (secretRequestProblem found nothing) at `now`. */
export function nextSecrets(current: ClientSecrets, request: SecretRequest, now: number): ClientSecrets {
  const overlapUntil = request.client_secret_previous_expires_at as number | undefined;
  const expiresAt = request.client_secret_expires_at as number | undefined;
  if (isRotation(current, request)) {
    // The replaced secret cannot outlive its own expiry.
    const ownExpiry = current.client_secret_expires_at || Infinity;
    const until = overlapUntil === undefined ? undefined : Math.min(overlapUntil, ownExpiry);
    return {
      client_secret: request.client_secret as string,
      client_secret_expires_at: expiresAt ?? 0,
      ...(current.client_secret && until !== undefined && until > now
        ? { client_secret_previous: current.client_secret, client_secret_previous_expires_at: until }
        : {}),
    };
  }
  const held = heldPrevious(current, now);
  const previous =
    overlapUntil === undefined || !held.client_secret_previous
      ? held
      : overlapUntil > now
        ? { ...held, client_secret_previous_expires_at: overlapUntil }
        : {};
  return {
    ...(current.client_secret ? { client_secret: current.client_secret } : {}),
    client_secret_expires_at: expiresAt ?? current.client_secret_expires_at ?? 0,
    ...previous,
  };
}
