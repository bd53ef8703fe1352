/**
 * The outbox worker: takes due steps one at a time and makes the authorization server follow the decision.
 * Exactly-once in effect: `register` checks for a client recorded by an earlier attempt before calling and records
 * the answer before anything else; `update` is a full RFC 7592 replacement with the current config (repeatable) and
 * skips when a newer revision was written; `delete` treats an already-gone client as done. Failures are retried with
 * exponential backoff; a refused request (4xx) or too many attempts marks the step failed, shown on the registration.
 */
import type { Logger } from '../../../lib/logger.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Store } from '../../deps.js';
import type { Registration } from '../registrations/registrations.model.js';
import { clientMetadataOf, type ClientMetadata } from './client-metadata.js';
import { REVEAL_WINDOW_MS, sealedSecretBinding } from './client-secret.model.js';
import { epochSeconds, fromEpochSeconds, secretExpiry, secretNoticesFor, usesClientSecret } from './secret-lifetime.js';
import type { OutboxStep, ProvisionedClient } from './provisioning.model.js';
import { ProvisioningCallError, type RegistrationClient } from './registration-client.js';
import type { TokenCipher } from './token-cipher.js';
import { createBackgroundRunner, type BackgroundRunner } from '../../../lib/background-runner.js';

export const PROVISIONING_ACTOR = 'system:provisioning';
const MAX_BACKOFF_S = 600;

interface ProvisioningWorkerOptions {
  store: Pick<Store, 'registrations' | 'provisioning' | 'audit' | 'secretNotices'>;
  clock: () => Date;
  client: RegistrationClient;
  cipher: TokenCipher;
  retryS: number;
  maxAttempts: number;
  logger?: Logger;
  /** Counts failed steps (provisioning_failures_total). */
  metrics?: Pick<Metrics, 'provisioningFailed'>;
  /** How long a claimed step stays claimed if this process dies mid-step (default 60 s). */
  leaseMs?: number;
  /**
   * Told of a step's end (done, or failed for good) before the step is marked so: a crash in between runs the
   * step again and tells again, never not at all (the webhook events provisioning.succeeded|failed).
   */
  onSettled?: (settled: ProvisioningSettled) => Promise<void>;
}

export interface ProvisioningSettled {
  step: OutboxStep;
  registration: Registration | null;
  outcome: 'done' | 'failed';
  error?: string;
  at: Date;
}

/**
 * A pass runs every step due now, one after another, and counts them; `kick` after a decision enqueued a step, the
 * poll for steps whose retry time has come.
 */
export type ProvisioningWorker = BackgroundRunner;

class NotYet extends Error {}

/** The step was done at the authorization server, but `onSettled` could not tell it. */
class NotTold extends Error {}

export function createProvisioningWorker(options: ProvisioningWorkerOptions): ProvisioningWorker {
  const { store, clock, client, cipher, logger } = options;
  const leaseMs = options.leaseMs ?? 60_000;

  async function audit(
    step: OutboxStep,
    registration: Registration | null,
    action: string,
    reason?: string,
  ): Promise<void> {
    await store.audit.append({
      organizationId: step.organizationId,
      targetType: 'registration',
      targetId: step.registrationId,
      action,
      actor: PROVISIONING_ACTOR,
      // On the service's clock, as the decision that enqueued the step was (not the store's own).
      at: clock(),
      revision: registration?.revision,
      reason,
    });
  }

  /** The metadata of a registration request: the client's, plus when its secret expires under its profile. */
  function registrationMetadata(registration: Registration, now: Date): ClientMetadata {
    const metadata = clientMetadataOf(registration);
    const expiresAt = usesClientSecret(registration) ? secretExpiry(registration, now) : undefined;
    return expiresAt ? { ...metadata, client_secret_expires_at: epochSeconds(expiresAt) } : metadata;
  }

  async function register(step: OutboxStep, registration: Registration): Promise<void> {
    let record = await store.provisioning.getClient(step.organizationId, step.registrationId);
    if (!record) {
      const now = clock();
      const registered = await client.register(registrationMetadata(registration, now));
      record = {
        registrationId: registration.id,
        organizationId: registration.organizationId,
        clientId: registered.clientId,
        registrationClientUri: registered.registrationClientUri,
        registrationAccessTokenEncrypted: cipher.encrypt(registered.registrationAccessToken, registration.id),
        revision: registration.revision,
        // The secret is recorded before anything else, so a crash before the registration holds it loses nothing.
        ...(registered.clientSecret !== undefined && {
          clientSecretSealed: cipher.encrypt(registered.clientSecret, sealedSecretBinding(registration.id)),
          clientSecretIssuedAt: now,
          ...(fromEpochSeconds(registered.clientSecretExpiresAt) && {
            clientSecretExpiresAt: fromEpochSeconds(registered.clientSecretExpiresAt),
          }),
        }),
        createdAt: now,
        updatedAt: now,
      };
      await store.provisioning.saveClient(record);
    }
    // The service's clientId is the authorization server's (RFC 7591 §3.2.1); the secret it issued waits on the
    // registration to be revealed once (secrets/client-secret.model.ts).
    const handOver = record.clientSecretSealed !== undefined && registration.secret === undefined;
    if (registration.clientId !== record.clientId || handOver) {
      const issuedAt = record.clientSecretIssuedAt ?? clock();
      // Before the hand-over: a crash after it loses no notice (a retry finds the secret handed over and would not
      // schedule them), and the notices of a hand-over that never lands are stale — only those of the secret the
      // registration holds are sent (secrets/secret-notices.ts), and scheduling one twice sends it once.
      if (handOver && record.clientSecretExpiresAt)
        await store.secretNotices.schedule(secretNoticesFor(registration, record.clientSecretExpiresAt, clock()));
      const outcome = await store.registrations.update(
        {
          organizationId: registration.organizationId,
          id: registration.id,
          statusIn: ['active', 'suspended', 'deprecated'],
        },
        {
          clientId: record.clientId,
          ...(handOver && {
            secret: {
              version: 1,
              issuedAt,
              ...(record.clientSecretExpiresAt && { expiresAt: record.clientSecretExpiresAt }),
              sealed: record.clientSecretSealed,
              revealBy: new Date(issuedAt.getTime() + REVEAL_WINDOW_MS),
            },
          }),
        },
        clock(),
      );
      if (!outcome.ok) throw new Error(`could not record the client on the registration (${outcome.reason})`);
    }
    if (record.clientSecretSealed !== undefined) {
      const { clientSecretSealed: _sealed, clientSecretIssuedAt: _at, clientSecretExpiresAt: _exp, ...rest } = record;
      await store.provisioning.saveClient({ ...rest, updatedAt: clock() });
    }
  }

  async function managed(step: OutboxStep): Promise<{ record: ProvisionedClient; token: string } | 'gone'> {
    const record = await store.provisioning.getClient(step.organizationId, step.registrationId);
    if (!record) {
      const steps = await store.provisioning.listSteps(step.organizationId, step.registrationId);
      // Approved before provisioning was configured: there is no client at the authorization server to follow.
      if (!steps.some((s) => s.kind === 'register')) return 'gone';
      // Registration has not happened yet (its step is still to run): wait for it.
      throw new NotYet('the client is not registered at the authorization server yet');
    }
    if (record.deletedAt) return 'gone';
    return { record, token: cipher.decrypt(record.registrationAccessTokenEncrypted, record.registrationId) };
  }

  async function update(step: OutboxStep, registration: Registration): Promise<void> {
    const found = await managed(step);
    if (found === 'gone' || found.record.revision >= registration.revision) return;
    await client.update(found.record.registrationClientUri, found.token, {
      ...clientMetadataOf(registration),
      client_id: found.record.clientId,
    });
    await store.provisioning.saveClient({ ...found.record, revision: registration.revision, updatedAt: clock() });
  }

  async function remove(step: OutboxStep): Promise<void> {
    const found = await managed(step);
    if (found === 'gone') return;
    try {
      await client.remove(found.record.registrationClientUri, found.token);
    } catch (error) {
      // On a retry, 401 means the token died with the client: an earlier attempt deleted it (RFC 7592 §2.3).
      if (!(error instanceof ProvisioningCallError && error.status === 401 && step.attempts > 1)) throw error;
    }
    await store.provisioning.saveClient({ ...found.record, deletedAt: clock(), updatedAt: clock() });
  }

  async function run(step: OutboxStep): Promise<void> {
    const registration = await store.registrations.get(step.organizationId, step.registrationId);
    try {
      if (!registration) throw new ProvisioningCallError('the registration no longer exists', true);
      if (step.kind === 'register') await register(step, registration);
      else if (step.kind === 'update') await update(step, registration);
      else await remove(step);
      const done = clock();
      try {
        await options.onSettled?.({ step, registration, outcome: 'done', at: done });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new NotTold(`the step is done but could not be told: ${reason}`, { cause: error });
      }
      await store.provisioning.settle(step.id, { status: 'done', now: done });
      await audit(step, registration, `provisioning_${step.kind}_done`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof ProvisioningCallError && error.permanent;
      const now = clock();
      const delayS = Math.min(options.retryS * 2 ** (step.attempts - 1), MAX_BACKOFF_S);
      if (error instanceof NotTold) {
        // Not a failure of the step: it runs again (idempotent, a no-op at the authorization server now) to tell its
        // end again — never not at all — whatever its attempts, and is marked done once told.
        await store.provisioning.settle(step.id, {
          status: 'pending',
          now,
          retryAt: new Date(now.getTime() + delayS * 1000),
          error: message,
        });
        logger?.warn(
          { step: step.id, attempts: step.attempts, retryInS: delayS, err: error.cause },
          'provisioning step done, but its end could not be told; it will run again to tell it',
        );
      } else if (permanent || step.attempts >= options.maxAttempts) {
        await options.onSettled?.({ step, registration, outcome: 'failed', error: message, at: now });
        await store.provisioning.settle(step.id, { status: 'failed', now, error: message });
        options.metrics?.provisioningFailed(step.kind, true);
        await audit(step, registration, `provisioning_${step.kind}_failed`, message);
        logger?.warn({ step: step.id, attempts: step.attempts, err: message }, 'provisioning step failed');
      } else {
        await store.provisioning.settle(step.id, {
          status: 'pending',
          now,
          retryAt: new Date(now.getTime() + delayS * 1000),
          error: message,
        });
        if (!(error instanceof NotYet)) {
          options.metrics?.provisioningFailed(step.kind, false);
          logger?.info(
            { step: step.id, attempts: step.attempts, retryInS: delayS, err: message },
            'provisioning step will be retried',
          );
        }
      }
    }
  }

  async function drain(): Promise<number> {
    let count = 0;
    for (;;) {
      const now = clock();
      const step = await store.provisioning.claimDue(now, new Date(now.getTime() + leaseMs));
      if (!step) return count;
      await run(step);
      count += 1;
    }
  }

  return createBackgroundRunner(drain, (error) => logger?.error({ err: error }, 'provisioning run failed'));
}
