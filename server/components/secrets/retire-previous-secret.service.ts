/**
 * `retire_previous_secret`: ends a rotation's grace now — the authorization server stops accepting the previous
 * secret (RFC 7592 PUT with our IdP's `client_secret_previous_expires_at: 0`), then it is recorded here. Retiring
 * twice is the same as once at the server, so a failure in between is repaired by retiring again.
 */
import { apiError } from '../../errors.js';
import { validateBody } from '../../http/validate-body.js';
import { clientMetadataOf } from '../provisioning/client-metadata.js';
import { ProvisioningCallError } from '../provisioning/registration-client.js';
import type { Registration } from '../registrations/registrations.model.js';
import { ACTION_REQUEST_SCHEMA } from '../registrations/registrations.service.js';
import type { RequestContext } from '../registrations/request-context.js';
import { managedClientOf, registrationClientOf, secretCipherOf, type SecretDeps } from './authorization-server.js';
import { commitSecret, readForSecretAction } from './secret-write.js';

export async function retirePreviousSecret(
  deps: SecretDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<Registration> {
  validateBody(ACTION_REQUEST_SCHEMA, body);
  const current = await readForSecretAction(deps, context, id, 'retire_previous_secret', revisionIn);
  const managed = await managedClientOf(deps, secretCipherOf(deps.config), current.organizationId, id);
  try {
    await registrationClientOf(deps.config).update(managed.client.registrationClientUri, managed.token, {
      ...clientMetadataOf(current),
      client_id: managed.client.clientId,
      client_secret_previous_expires_at: 0,
    });
  } catch (error) {
    if (error instanceof ProvisioningCallError && error.permanent)
      throw apiError('conflict', `The authorization server refused to retire the previous secret: ${error.message}.`);
    throw apiError('unavailable', 'The authorization server did not confirm the retirement; retire again.', {
      headers: { 'Retry-After': '5' },
      cause: error,
    });
  }
  const { previousExpiresAt: _retired, ...kept } = current.secret;
  return commitSecret(deps, current, kept, { action: 'retire_previous_secret', actor: context.principal.sub });
}
