/**
 * Provisioning records: outbox steps (one per decision the authorization server must follow) and the client as
 * provisioned there (its `client_id`, RFC 7592 management URI and the encrypted registration access token).
 */
/** What the authorization server must do for a decision: RFC 7591 register, RFC 7592 update or delete. */
export type ProvisioningStepKind = 'register' | 'update' | 'delete';

export const STEP_STATUSES = ['pending', 'in_progress', 'done', 'failed'] as const;
type StepStatus = (typeof STEP_STATUSES)[number];

export interface OutboxStep {
  /** `<registrationId>:<kind>:<revision>`: enqueuing the same decision twice yields one step. */
  id: string;
  organizationId: string;
  registrationId: string;
  kind: ProvisioningStepKind;
  /** The registration revision the decision produced. */
  revision: number;
  status: StepStatus;
  attempts: number;
  /** When the step may run (again). */
  nextAttemptAt: Date;
  /** An in-progress step whose lease ran out (the worker died) may be claimed again. */
  leaseUntil?: Date;
  lastError?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProvisionedClient {
  registrationId: string;
  organizationId: string;
  /** Assigned by the authorization server (RFC 7591 §3.2.1). */
  clientId: string;
  /** RFC 7592 §3: where the client is read, updated and deleted. */
  registrationClientUri: string;
  /** The registration access token, AES-256-GCM encrypted (token-cipher.ts). */
  registrationAccessTokenEncrypted: string;
  /** The registration revision last written to the authorization server. */
  revision: number;
  /**
   * The secret the registration answer carried, sealed, until it is recorded on the registration (a retry after a
   * crash in between finds it here); then removed, so the registration holds the one copy that is revealed once.
   */
  clientSecretSealed?: string;
  clientSecretIssuedAt?: Date;
  clientSecretExpiresAt?: Date;
  /** Set once the client was deleted at the authorization server (deprecation). */
  deletedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export type ProvisioningStatus = 'none' | 'pending' | 'failed' | 'done';
