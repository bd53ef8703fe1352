/**
 * The platform's built-in policy profiles (fixed ids, docs/architecture.md §1.3). Data, validated against
 * `schemas/policy-profile.schema.json` by the tests; the policy engine reads the constraints from here. An operator
 * declares more in the seed file (declared-policy-profiles.ts); `findPolicyProfile` finds both.
 */
import { DEVICE_CODE_GRANT } from '../../plans.js';
import { deepFreeze } from '../../../lib/deep-freeze.js';
import type { PolicyProfile } from './policy-profiles.model.js';
import type { PlanLimits } from '../../plans.js';
import {
  declaredPolicyProfile,
  declaredPolicyProfilesOn,
  listDeclaredPolicyProfiles,
} from './declared-policy-profiles.js';

const SECRET_AND_KEY_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
];

const ONE_DAY_S = 86_400;
/** Long enough to roll a new secret out to every instance of a service that deploys weekly. */
const SEVEN_DAYS_S = 7 * ONE_DAY_S;

export const POLICY_PROFILES: readonly Readonly<PolicyProfile>[] = deepFreeze<PolicyProfile[]>([
  {
    id: 'pp_standard',
    name: 'Standard',
    description:
      'OAuth 2.0 Security BCP (RFC 9700): exact https redirect URIs (loopback http and private-use schemes for native apps only), PKCE for public clients, no implicit or password grants.',
    appliesTo: ['public', 'confidential'],
    constraints: {
      applicationTypes: ['web', 'spa', 'native'],
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT],
      tokenEndpointAuthMethods: ['none', ...SECRET_AND_KEY_METHODS],
      redirectUris: 'allowed',
      requirePkce: false,
      requirePushedAuthorizationRequests: false,
      maxSecretGraceSeconds: SEVEN_DAYS_S,
    },
  },
  {
    id: 'pp_fapi2',
    name: 'FAPI 2.0 Security Profile',
    description:
      'High-assurance web applications: confidential clients only, private_key_jwt client authentication, pushed authorization requests and PKCE required, authorization code grant only.',
    appliesTo: ['confidential'],
    constraints: {
      applicationTypes: ['web'],
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethods: ['private_key_jwt'],
      redirectUris: 'allowed',
      requirePkce: true,
      requirePushedAuthorizationRequests: true,
      // private_key_jwt only: no client secret to rotate; key rotation goes through the JWKS.
      maxSecretGraceSeconds: ONE_DAY_S,
    },
  },
  {
    id: 'pp_service',
    name: 'Service (machine to machine)',
    description:
      'Back-end services acting on their own behalf: confidential clients, client_credentials only, no redirect URIs.',
    appliesTo: ['confidential'],
    constraints: {
      applicationTypes: ['service'],
      grantTypes: ['client_credentials'],
      tokenEndpointAuthMethods: SECRET_AND_KEY_METHODS,
      redirectUris: 'forbidden',
      requirePkce: false,
      requirePushedAuthorizationRequests: false,
      maxSecretGraceSeconds: SEVEN_DAYS_S,
    },
  },
]);

export function findPolicyProfile(id: unknown): Readonly<PolicyProfile> | undefined {
  return POLICY_PROFILES.find((p) => p.id === id) ?? declaredPolicyProfile(id);
}

/** Every profile, built-in then declared (what GET /policy-profiles lists). */
export function allPolicyProfiles(): Readonly<PolicyProfile>[] {
  return [...POLICY_PROFILES, ...listDeclaredPolicyProfiles()];
}

/** The profiles registrations on this plan may use: the plan's built-in ones, then the declared ones for it. */
export function policyProfilesOnPlan(plan: PlanLimits): Readonly<PolicyProfile>[] {
  return [...POLICY_PROFILES.filter((p) => plan.policyProfiles.includes(p.id)), ...declaredPolicyProfilesOn(plan.plan)];
}

export function isPolicyProfileOnPlan(id: string, plan: PlanLimits): boolean {
  return policyProfilesOnPlan(plan).some((p) => p.id === id);
}
