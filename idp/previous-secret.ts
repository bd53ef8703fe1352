/**
 * A client's previous secret (issue #27): kept in its metadata as `client_secret_previous` until
 * `client_secret_previous_expires_at` (extra client metadata, so oidc-provider stores it with the client), and
 * accepted wherever the current secret is — client_secret_basic and client_secret_post at the token, introspection and
 * revocation endpoints, which all authenticate the client through `compareClientSecret`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';
import { errors, type Configuration } from 'oidc-provider';
import type { ClientSecrets } from './secret-rotation.js';

const PREVIOUS = 'client_secret_previous';
const PREVIOUS_EXPIRES_AT = 'client_secret_previous_expires_at';

export const previousSecretMetadata: NonNullable<Configuration['extraClientMetadata']> = {
  properties: [PREVIOUS, PREVIOUS_EXPIRES_AT],
  validator(_ctx, key, value) {
    if (value === undefined) return;
    if (key === PREVIOUS && typeof value !== 'string')
      throw new errors.InvalidClientMetadata(`${PREVIOUS} must be a string`);
    if (key === PREVIOUS_EXPIRES_AT && !(Number.isSafeInteger(value) && (value as number) >= 0))
      throw new errors.InvalidClientMetadata(`${PREVIOUS_EXPIRES_AT} must be a non-negative integer`);
  },
};

/** Equal strings, in a time that does not depend on where they differ. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The provider's clients also accept their previous secret until it expires. */
export function acceptPreviousSecret(provider: Provider): void {
  const prototype = provider.Client.prototype as typeof provider.Client.prototype & ClientSecrets;
  // oidc-provider's own comparison, kept to be called on each client (it reads the client's current secret).
  const compareCurrent = Object.getOwnPropertyDescriptor(prototype, 'compareClientSecret')!.value as (
    this: typeof prototype,
    actual: string,
  ) => boolean | Promise<boolean>;
  prototype.compareClientSecret = async function compareClientSecret(this: typeof prototype, actual: string) {
    if (await compareCurrent.call(this, actual)) return true;
    const previous = this[PREVIOUS];
    const until = this[PREVIOUS_EXPIRES_AT];
    return (
      typeof previous === 'string' &&
      typeof until === 'number' &&
      Math.floor(Date.now() / 1000) < until &&
      sameSecret(previous, actual)
    );
  };
}
