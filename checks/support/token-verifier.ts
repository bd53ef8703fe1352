/**
 * The shared verdict of the token-forgery checks (jwt.*): a forged token asks the verifier behind an operation, not
 * the operation, so operations that evidently share one verifier are judged once (scanner/api.ts `sharedVerdict`).
 */
import { createHash } from 'node:crypto';
import type { SharedVerdict } from '../../scanner/api.js';
import type { BaselineFacts } from './auth-baseline-facts.js';
import { pathMount } from './path-mount.js';

/**
 * What tells verifiers apart before any forged token is sent: the origin and path mount (path-mount.ts), where the
 * credential goes and which token it is, and how the operation rejected no credential and a garbage one (auth.baseline:
 * a different verifier tends to answer differently). Operations whose answers do not let a forgery be judged the common way (not
 * protected, credential refused, valid but not permitted), and token arguments (scanner/graphql/token-argument.ts), are
 * judged on their own.
 */
export const tokenVerifier: SharedVerdict = {
  subject: 'token verifier (origin and path mount, credential, answers without one and to a garbage one)',
  key(operation, fact) {
    const facts = fact<BaselineFacts>('auth.baseline', 'facts');
    const credential = operation.credential;
    if (!credential || !facts?.digests || !facts.requiresCredential || !facts.credentialAccepted || facts.notPermitted)
      return undefined;
    // A token argument (a body credential) is verified by its own field's resolver, whatever the answers look like.
    if (credential.in === 'body') return undefined;
    const token = createHash('sha256').update(credential.value).digest('hex');
    return JSON.stringify([
      pathMount(operation),
      credential.schemeName,
      credential.in,
      credential.name.toLowerCase(),
      token,
      facts.statuses.noCredential,
      facts.statuses.garbage,
      facts.garbageRejected,
      facts.digests.noCredential,
      facts.digests.garbage,
    ]);
  },
};
