/**
 * The self-service `rotate_secret` action: a new client secret for an active confidential registration, returned
 * once in the response and never stored — only its SHA-256 (a 256-bit random secret needs no slow hash). The
 * rotation is one conditional write (revision + 1), audited like every self-service transition.
 */
import { createHash, randomBytes } from 'node:crypto';
import { validateBody } from '../../http/validate-body.js';
import type { Registration } from './registrations.model.js';
import { ACTION_REQUEST_SCHEMA, transition } from './registrations.service.js';
import type { ServiceDeps } from './service-deps.js';
import type { RequestContext } from './request-context.js';

const SECRET_BYTES = 32;

interface RotatedSecret {
  registration: Registration;
  /** The new secret: shown in this response only. */
  clientSecret: string;
}

function hashClientSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`;
}

export async function rotateClientSecret(
  deps: ServiceDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<RotatedSecret> {
  validateBody(ACTION_REQUEST_SCHEMA, body);
  const clientSecret = randomBytes(SECRET_BYTES).toString('base64url');
  const registration = await transition(deps, context, id, 'rotate_secret', revisionIn, () => ({
    clientSecretHash: hashClientSecret(clientSecret),
    clientSecretIssuedAt: deps.clock(),
  }));
  // Audited by `transition` like every self-service write (never with the secret).
  return { registration, clientSecret };
}
