/** A policy profile: platform-defined constraints a registration opts into (DESIGN.md §1.3). Read-only. */
import type { ApplicationType, ClientType } from '../registrations/registrations.model.js';

interface PolicyProfileConstraints {
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
}

export interface PolicyProfile {
  id: string;
  name: string;
  description: string;
  /** Client types the profile can be used with. */
  appliesTo: ClientType[];
  constraints: PolicyProfileConstraints;
}
