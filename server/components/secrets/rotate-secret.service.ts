/**
 * `rotate_secret`: a new client secret, set at the authorization server by an RFC 7592 PUT carrying it, then
 * recorded here and returned once. With PROVISIONING_SECRET_OVERLAP the previous secret keeps working for
 * `graceSeconds` (our IdP's `client_secret_previous_expires_at`); without it the rotation is immediate.
 *
 * The push and the record are two steps, so the rotation is written down first (`pending`, the new secret sealed):
 * a push whose outcome is unknown (a timeout, the service killed, the database gone before the record) leaves it
 * pending, and the next rotation resumes it — it pushes the same secret again (the same secret is no change at the
 * authorization server) and returns it, instead of setting a third one that would drop the secret clients still use.
 */
import { randomBytes } from 'node:crypto';
import { apiError } from '../../errors.js';
import { validateBody } from '../../http/validate-body.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { clientMetadataOf } from '../provisioning/client-metadata.js';
import { ProvisioningCallError, type UpdatedClient } from '../provisioning/registration-client.js';
import { findPolicyProfile } from '../policy-profiles/policy-profiles.data.js';
import type { Registration } from '../registrations/registrations.model.js';
import type { RequestContext } from '../registrations/request-context.js';
import { managedClientOf, registrationClientOf, secretCipherOf, type SecretDeps } from './authorization-server.js';
import {
  DEFAULT_GRACE_SECONDS,
  ROTATION_IN_FLIGHT_MS,
  sealedSecretBinding,
  type PendingRotation,
} from '../provisioning/client-secret.model.js';
import type { ShownSecret } from './reveal-secret.service.js';
import { epochSeconds, fromEpochSeconds, secretExpiry, secretNoticesFor } from '../provisioning/secret-lifetime.js';
import { commitSecret, readForSecretAction } from './secret-write.js';

export const SECRET_ROTATION_SCHEMA = apiSchemaId('secret-rotation');

/** 256 random bits, base64url: 43 characters (RFC 6749 §10.10 asks for unguessable credentials). */
const SECRET_BYTES = 32;

export interface RotatedSecret extends ShownSecret {
  rotation: { graceSeconds: number; immediate: boolean; previousSecretExpiresAt?: Date };
}

/** The grace this rotation gives: what was asked (or the default), within the profile and the server's ability. */
function graceOf(deps: SecretDeps, registration: Registration, asked: number | undefined): number {
  const profile = findPolicyProfile(registration.policyProfileId);
  const max = profile?.constraints.maxSecretGraceSeconds ?? 0;
  if (asked !== undefined && asked > max) {
    throw apiError(
      'validation_failed',
      `The policy profile ${registration.policyProfileId} allows a grace of ${max} s at most.`,
      {
        fields: [{ path: 'graceSeconds', message: `must be at most ${max}` }],
      },
    );
  }
  if (!deps.config.provisioningSecretOverlap) return 0;
  return asked ?? Math.min(DEFAULT_GRACE_SECONDS, max);
}

/** A push the server refused: nothing changed there. Any other failure has an unknown outcome. */
const isRefusal = (error: unknown) => error instanceof ProvisioningCallError && error.permanent;

/** The answer to a push that failed: refused (the rotation is abandoned) or unknown (it stays, to be resumed). */
function pushFailure(error: unknown): Error {
  if (isRefusal(error))
    return apiError('conflict', `The authorization server refused the new secret: ${(error as Error).message}.`);
  return apiError('unavailable', 'The authorization server did not confirm the new secret; rotate again to finish.', {
    headers: { 'Retry-After': '5' },
    cause: error,
  });
}

export async function rotateSecret(
  deps: SecretDeps,
  context: RequestContext,
  id: string,
  body: unknown,
  revisionIn?: readonly number[],
): Promise<RotatedSecret> {
  const input = validateBody<{ graceSeconds?: number }>(SECRET_ROTATION_SCHEMA, body ?? {});
  let current = await readForSecretAction(deps, context, id, 'rotate_secret', revisionIn);
  const grace = graceOf(deps, current, input.graceSeconds);
  const cipher = secretCipherOf(deps.config);
  const registrationClient = registrationClientOf(deps.config);
  const managed = await managedClientOf(deps, cipher, current.organizationId, id);
  const now = deps.clock();

  // A rotation left pending (the guard let it through: it is older than ROTATION_IN_FLIGHT_MS) is resumed as it was.
  const resumed = current.secret.pending;
  const pending: PendingRotation = resumed
    ? { ...resumed, startedAt: now }
    : {
        sealed: cipher.encrypt(randomBytes(SECRET_BYTES).toString('base64url'), sealedSecretBinding(id)),
        startedAt: now,
        ...(secretExpiry(current, now) && { expiresAt: secretExpiry(current, now) }),
        ...(grace > 0 && { previousExpiresAt: new Date(now.getTime() + grace * 1000) }),
      };
  const clientSecret = cipher.decrypt(pending.sealed, sealedSecretBinding(id));
  current = (await commitSecret(deps, current, { ...current.secret, pending })) as typeof current;

  let answer: UpdatedClient;
  try {
    answer = await registrationClient.update(managed.client.registrationClientUri, managed.token, {
      ...clientMetadataOf(current),
      client_id: managed.client.clientId,
      client_secret: clientSecret,
      client_secret_expires_at: epochSeconds(pending.expiresAt),
      ...(pending.previousExpiresAt && {
        client_secret_previous_expires_at: epochSeconds(pending.previousExpiresAt),
      }),
    });
  } catch (error) {
    const { pending: _pending, ...before } = current.secret;
    // Refused: nothing changed there, so the rotation is dropped. Unknown: it may have landed, so it stays, and
    // is marked as no longer in flight so that the caller's retry resumes it now rather than in a minute.
    const next = isRefusal(error)
      ? before
      : { ...current.secret, pending: { ...pending, startedAt: new Date(now.getTime() - ROTATION_IN_FLIGHT_MS) } };
    await commitSecret(deps, current, next).catch(() => undefined);
    throw pushFailure(error);
  }

  const { pending: _done, sealed: _sealed, revealBy: _revealBy, ...kept } = current.secret;
  const expiresAt = fromEpochSeconds(answer.clientSecretExpiresAt) ?? pending.expiresAt;
  // What the server says it keeps (it caps the grace at the old secret's own expiry); what was asked otherwise.
  const previousExpiresAt =
    pending.previousExpiresAt && (fromEpochSeconds(answer.clientSecretPreviousExpiresAt) ?? pending.previousExpiresAt);
  // The new secret's notices before the rotation is stored: a crash after it loses none, and those of a rotation
  // never stored are stale (only the notices of the secret the registration holds are sent). If they cannot be
  // written now they are written after it: the authorization server already holds the new secret, so the rotation
  // must be stored whatever happens to them.
  const notices = expiresAt ? secretNoticesFor(current, expiresAt, now) : [];
  const scheduledFirst = await deps.store.secretNotices.schedule(notices).then(
    () => true,
    () => false,
  );
  const registration = await commitSecret(
    deps,
    current,
    {
      ...kept,
      issuedAt: now,
      expiresAt,
      revealedAt: now,
      previousExpiresAt,
    },
    { action: 'rotate_secret', actor: context.principal.sub },
  );
  await followConcurrentChange(deps, current.revision, registration, managed);
  if (!scheduledFirst) await deps.store.secretNotices.schedule(notices);
  return {
    registration,
    clientSecret,
    rotation: {
      // The server answers in whole seconds, rounded down: up to a second less than asked is the grace asked.
      graceSeconds: previousExpiresAt
        ? Math.max(0, Math.ceil((previousExpiresAt.getTime() - now.getTime()) / 1000))
        : 0,
      immediate: previousExpiresAt === undefined,
      ...(previousExpiresAt && { previousSecretExpiresAt: previousExpiresAt }),
    },
  };
}

/**
 * The PUT replaced the client's metadata with the registration at revision `sent` (as read before it); if a change
 * set was applied meanwhile, its own (queued) update may have reached the server first, and the PUT then overwrote
 * it: send the newest metadata once more (a metadata-only PUT leaves the secrets alone). Compared with `sent`, not
 * with the final commit's record: that commit already carries any change applied while the PUT was in flight (a
 * secret write leaves the revision as it is, so only a change of the registration moves it past `sent`). Best
 * effort: the change set's update step stays the authority.
 */
async function followConcurrentChange(
  deps: SecretDeps,
  sent: number,
  committed: Registration,
  managed: Awaited<ReturnType<typeof managedClientOf>>,
): Promise<void> {
  const read = await deps.store.registrations.get(committed.organizationId, committed.id).catch(() => null);
  const latest = read && read.revision >= committed.revision ? read : committed;
  if (latest.revision <= sent) return;
  await registrationClientOf(deps.config)
    .update(managed.client.registrationClientUri, managed.token, {
      ...clientMetadataOf(latest),
      client_id: managed.client.clientId,
    })
    .catch((error: unknown) =>
      deps.logger?.warn({ err: error, id: committed.id }, 'client metadata not re-sent after a rotation'),
    );
}
