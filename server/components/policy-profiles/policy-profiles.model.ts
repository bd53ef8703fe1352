/** A policy profile: platform-defined constraints a registration opts into (docs/architecture.md §1.3). Read-only. */
import type { ApplicationType, ClientType } from '../registrations/registrations.model.js';

export interface PolicyProfileConstraints {
  applicationTypes: ApplicationType[];
  /** Grant types allowed under this profile (the platform, the application type and the plan may narrow them). */
  grantTypes: string[];
  tokenEndpointAuthMethods: string[];
  /** `forbidden`: no redirect or post-logout redirect URIs at all (machine-to-machine). */
  redirectUris: 'allowed' | 'forbidden';
  /** PKCE for every client under the profile, confidential ones included (public clients always need it). */
  requirePkce: boolean;
  /** Pushed authorization requests (RFC 9126) required. */
  requirePushedAuthorizationRequests: boolean;
  /**
   * How long a client secret issued under the profile may live, in days; the authorization server refuses it after
   * (`client_secret_expires_at`, RFC 7591 §3.2.1). Absent: secrets do not expire.
   */
  maxSecretLifetimeDays?: number;
  /** The longest grace `rotate_secret` may give the previous secret, in seconds (0: rotations are immediate). */
  maxSecretGraceSeconds: number;
}

export interface PolicyProfile {
  id: string;
  name: string;
  description: string;
  /** Client types the profile can be used with. */
  appliesTo: ClientType[];
  constraints: PolicyProfileConstraints;
}
