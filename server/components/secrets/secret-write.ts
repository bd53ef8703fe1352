/**
 * How a secret action reads and commits: the registration as the caller may see it, refused by the state machine
 * as its `actions` say; then one compare-and-set of the secret state (its version) carrying the audit entry in the
 * record's outbox (outbox/outbox.model.ts), so an acknowledged secret action is always audited. The revision and
 * `updatedAt` stay as they are (client-secret.model.ts says why).
 */
import { apiError } from '../../errors.js';
import { outboxDelivery, withoutOutbox } from '../outbox/outbox-delivery.js';
import { transitionEvents } from '../outbox/transition-events.js';
import { registrationAudit } from '../registrations/registration-commit.js';
import { registrationEvent } from '../registrations/registration-event.js';
import type { Registration } from '../registrations/registrations.model.js';
import { getRegistration } from '../registrations/registrations.service.js';
import { actionContextOf, type RequestContext } from '../registrations/request-context.js';
import { check, selfServiceRow, type SelfServiceAction } from '../registrations/state-machine.js';
import { writeMissError } from '../registrations/write-miss.js';
import type { SecretDeps } from './authorization-server.js';
import type { ClientSecretState } from '../provisioning/client-secret.model.js';

/** The registration, if the caller may perform `action` on it now (and it is at an If-Match revision). */
export async function readForSecretAction(
  deps: SecretDeps,
  context: RequestContext,
  id: string,
  action: SelfServiceAction,
  revisionIn?: readonly number[],
): Promise<Registration & { secret: ClientSecretState }> {
  const current = await getRegistration(deps, context, id);
  const refused = check(action, current, actionContextOf(context, deps.clock()));
  if (refused) throw refused;
  if (revisionIn !== undefined && !revisionIn.includes(current.revision))
    throw writeMissError('stale_revision', action, current);
  // The state machine's `secretManaged` guard let it through.
  return current as Registration & { secret: ClientSecretState };
}

/** The secret state without its absent members (both stores then hold exactly the same value). */
function secretState(secret: ClientSecretState): ClientSecretState {
  return Object.fromEntries(
    Object.entries(secret).filter(([, value]) => value !== undefined),
  ) as unknown as ClientSecretState;
}

/**
 * Replaces the secret state of `current` with `next` (version + 1) if nobody changed it since `current` was read;
 * `audit` names the action recorded (none for a rotation's intermediate write).
 */
export async function commitSecret(
  deps: SecretDeps,
  current: Registration & { secret: ClientSecretState },
  next: Omit<ClientSecretState, 'version'>,
  audit?: { action: SelfServiceAction | 'discard_secret'; actor: string },
): Promise<Registration> {
  const now = deps.clock();
  const state = secretState({ ...next, version: current.secret.version + 1 });
  const outbox = audit
    ? transitionEvents({
        audit: registrationAudit(current, {
          action: audit.action,
          actor: audit.actor,
          to: current.status,
          now,
          revision: current.revision,
        }),
        ...(audit.action === 'rotate_secret' && {
          webhook: registrationEvent('secret.rotated', { ...current, secret: state }, audit.actor, now),
        }),
      })
    : undefined;
  const outcome = await deps.store.registrations.updateSecret(
    { organizationId: current.organizationId, id: current.id, statusIn: selfServiceRow('rotate_secret').from },
    current.secret.version,
    state,
    now,
    outbox,
    outboxDelivery(deps),
  );
  if (outcome.ok) return withoutOutbox(outcome.record);
  if (outcome.reason === 'guard_failed')
    throw apiError('conflict', 'The client secret changed while this request ran; read the registration again.');
  throw writeMissError(outcome.reason, audit?.action ?? 'rotate_secret', outcome.current);
}
