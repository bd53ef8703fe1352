/**
 * The seam between review decisions and provisioning: a decision that the authorization server must follow
 * (approve → RFC 7591 register, change set approved → RFC 7592 PUT, deprecate → RFC 7592 DELETE) enqueues one
 * outbox step right after its own write commits; the outbox worker carries it out, with retries.
 */
import type { ProvisioningStepKind } from './provisioning.model.js';
import type { ProvisioningRepository } from './provisioning.repository.js';

export interface ProvisioningHook {
  enqueue(step: {
    kind: ProvisioningStepKind;
    organizationId: string;
    registrationId: string;
    revision: number;
  }): Promise<void>;
}

/** Stores the step (idempotent per decision), then nudges the worker so it runs without waiting for its poll. */
export function createProvisioningHook(options: {
  store: { provisioning: Pick<ProvisioningRepository, 'enqueue'> };
  clock: () => Date;
  worker?: { kick(): void };
}): ProvisioningHook {
  return {
    async enqueue(step) {
      await options.store.provisioning.enqueue({ ...step, now: options.clock() });
      options.worker?.kick();
    },
  };
}
