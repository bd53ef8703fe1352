/**
 * `reveal_secret`: the secret the authorization server issued at provisioning, unsealed and returned once. The
 * write that marks it revealed (and removes the sealed copy) commits before the secret is returned, and only one
 * of two concurrent reveals commits, so no secret is ever shown twice.
 */
import { validateBody } from '../../http/validate-body.js';
import type { Registration } from '../registrations/registrations.model.js';
import { ACTION_REQUEST_SCHEMA } from '../registrations/registrations.service.js';
import type { RequestContext } from '../registrations/request-context.js';
import { secretCipherOf, type SecretDeps } from './authorization-server.js';
import { sealedSecretBinding } from '../provisioning/client-secret.model.js';
import { commitSecret, readForSecretAction } from './secret-write.js';

export interface ShownSecret {
  registration: Registration;
  /** Shown in this answer only. */
  clientSecret: string;
}

export async function revealSecret(
  deps: SecretDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<ShownSecret> {
  validateBody(ACTION_REQUEST_SCHEMA, body);
  const current = await readForSecretAction(deps, context, id, 'reveal_secret', revisionIn);
  const clientSecret = secretCipherOf(deps.config).decrypt(current.secret.sealed as string, sealedSecretBinding(id));
  const { sealed: _sealed, revealBy: _revealBy, ...kept } = current.secret;
  const registration = await commitSecret(
    deps,
    current,
    { ...kept, revealedAt: deps.clock() },
    { action: 'reveal_secret', actor: context.principal.sub },
  );
  return { registration, clientSecret };
}
