/**
 * The seam between review decisions and provisioning: a decision that the authorization server must follow
 * (approve → RFC 7591 register, change set approved → RFC 7592 PUT, deprecate → RFC 7592 DELETE) enqueues one
 * outbox step right after its own write commits; the outbox worker carries it out, with retries.
 */
export type ProvisioningStepKind = 'register' | 'update' | 'delete';

export interface ProvisioningHook {
  enqueue(step: { kind: ProvisioningStepKind; organizationId: string; registrationId: string; revision: number }): Promise<void>;
}
