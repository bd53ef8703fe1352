/**
 * What the internal (reviewer/admin) surface is built from: the service's deps plus the provisioning hook that
 * approvals, change-set approvals and deprecations call. The console uses the same deps and service functions.
 */
import type { ApiDeps } from '../deps.js';
import type { ProvisioningHook } from '../components/provisioning/provisioning-hook.js';
import type { ConsoleOidcOptions } from './console/console-oidc-options.js';

export interface InternalDeps extends ApiDeps {
  /** Enqueues provisioning steps at the authorization server; absent when provisioning is not configured. */
  provisioning?: ProvisioningHook;
  /** The outbox worker, nudged when an admin retries a failed step. */
  provisioningWorker?: { kick(): void };
  /** The webhook dispatcher, nudged after a decision stored an event; without it, its poll finds the event. */
  webhooks?: { kick(): void };
  /** The review console's sign-in client; without it `/console` is not mounted. */
  console?: { oidc: ConsoleOidcOptions; sessionTtlS?: number };
}

/** The part of InternalDeps the service functions need (tests can pass just these). */
export type InternalServiceDeps = Pick<InternalDeps, 'store' | 'clock' | 'provisioning' | 'webhooks'>;
