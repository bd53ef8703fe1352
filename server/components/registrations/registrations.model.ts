/** The registration record as stored, its statuses and the fields a caller may never write (docs/architecture.md §1.3). */
import type { OutboxFields } from '../outbox/outbox.model.js';
import type { ClientSecretState } from '../provisioning/client-secret.model.js';

export const REGISTRATION_STATUSES = [
  'draft',
  'pending_review',
  'changes_requested',
  'active',
  'rejected',
  'suspended',
  'deprecated',
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export const CLIENT_TYPES = ['public', 'confidential'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const APPLICATION_TYPES = ['web', 'spa', 'native', 'service'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

/**
 * RFC 7591 client metadata in camelCase. Its structural limits are the JSON Schema
 * `registration-config.schema.json` (owned by the policy component); this type mirrors it.
 */
export interface RegistrationConfig {
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  grantTypes?: string[];
  responseTypes?: string[];
  tokenEndpointAuthMethod?: string;
  scopes?: string[];
  clientUri?: string;
  logoUri?: string;
  contacts?: string[];
  jwksUri?: string;
  jwks?: { keys: unknown[] };
  [key: string]: unknown;
}

/** Whether a reviewer's decision is awaited: the registration submitted, or a change set of it proposed. */
export function awaitsReview(record: Pick<Registration, 'status' | 'pendingChangeSetId'>): boolean {
  return record.status === 'pending_review' || record.pendingChangeSetId !== undefined;
}

export interface Registration extends OutboxFields {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  clientType: ClientType;
  applicationType: ApplicationType;
  policyProfileId: string;
  templateId?: string;
  config: RegistrationConfig;
  status: RegistrationStatus;
  /** Assigned when a reviewer approves; unique across the platform. */
  clientId?: string;
  /** Starts at 1; every write adds 1. The strong ETag is derived from it (RFC 9110 §8.8.3). */
  revision: number;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  submittedAt?: Date;
  /** Who submitted last: a reviewer may not approve their own submission (separation of duties). */
  submittedBy?: string;
  decidedAt?: Date;
  decidedBy?: string;
  /** The one open change set, if any: the registration itself is the lock that keeps it to one. */
  pendingChangeSetId?: string;
  /**
   * The client secret at the authorization server, as this service follows it (secrets/client-secret.model.ts);
   * absent when the service manages none (a public or key-authenticated client, or one it did not register).
   */
  secret?: ClientSecretState;
  /** Legacy (schema version 4 and before): the SHA-256 a rotation kept of a secret the authorization server never saw. */
  clientSecretHash?: string;
  /** Legacy: when that rotation happened; `secret.issuedAt` replaces it. */
  clientSecretIssuedAt?: Date;
  /**
   * `JSON [organizationId, subject, Idempotency-Key]` of the create that made it: unique, so a retried create finds
   * the record instead of making a second one.
   */
  idempotencyKey?: string;
  /** Set when deleted while its outbox still holds the delete's audit entry: invisible to every read (tombstone). */
  removedAt?: Date;
}

/** Fields a write may set; `null` removes an optional field. `id`, `organizationId`, `createdBy`, `createdAt` never change. */
export type RegistrationChanges = {
  [
    K in 'name' | 'description' | 'clientType' | 'applicationType' | 'policyProfileId' | 'config' | 'status'
  ]?: Registration[K];
} & {
  [
    K in
      | 'clientId'
      | 'submittedAt'
      | 'submittedBy'
      | 'decidedAt'
      | 'decidedBy'
      | 'pendingChangeSetId'
      | 'clientSecretHash'
      | 'clientSecretIssuedAt'
      | 'secret'
  ]?: Registration[K] | null;
};
