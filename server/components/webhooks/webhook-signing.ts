/**
 * Standard Webhooks signatures: a secret is `whsec_` + base64 of random bytes; each attempt is signed with
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` and sent as `webhook-signature: v1,<base64>`.
 * Secrets are kept sealed with the provisioning key (the registration access tokens' AES-256-GCM cipher, bound to
 * the webhook); on the embedded store without that key, with a key of the process (the store dies with it too).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { createTokenCipher, type TokenCipher } from '../provisioning/token-cipher.js';

/** 32 random bytes: within the 24–64 the specification asks for. */
const SECRET_BYTES = 32;
const PREFIX = 'whsec_';

let processCipher: TokenCipher | undefined;

export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** What a secret is sealed to: the webhook, and that it is its signing secret. */
export function signingSecretBinding(webhookId: string): string {
  return `${webhookId}#signing_secret`;
}

/**
 * Whether this deploy can keep signing secrets, so have webhooks at all: with the provisioning key, or on the
 * embedded store. On MongoDB without the key creating a webhook answers 409 and the dispatcher does not poll.
 */
export function webhooksPossible(deps: Pick<ApiDeps, 'config' | 'store'>): boolean {
  return Boolean(deps.config.provisioningEncryptionKey) || deps.store.kind === 'memory';
}

/** The cipher of signing secrets, or 409 when the service has no key to keep them with on a database. */
export function signingSecretCipher(deps: Pick<ApiDeps, 'config' | 'store'>): TokenCipher {
  if (deps.config.provisioningEncryptionKey) return createTokenCipher(deps.config.provisioningEncryptionKey);
  if (webhooksPossible(deps)) return (processCipher ??= createTokenCipher(randomBytes(32).toString('base64')));
  throw apiError(
    'conflict',
    'Webhooks need the service to keep their signing secrets encrypted: the operator must set PROVISIONING_ENCRYPTION_KEY.',
  );
}

/** The `webhook-signature` header value of one attempt. */
export function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}
