/**
 * The capabilities record (docs/architecture.md §1.3): what this caller may do in this organization, computed from the plan,
 * the token's scopes, the client-type rules, the policy profiles and the platform policy — the same data the
 * policy engine enforces, so a client that follows it never meets a surprise on submit.
 */
import type { ServiceConfig } from '../../config.js';
import { planFor } from '../../plans.js';
import { SCOPES } from '../../principal.js';
import type { Organization, Plan } from '../organizations/organizations.model.js';
import type { GrantRole } from '../grants/grants.model.js';
import { clientTypeRules, platformPolicy, type PlatformPolicy } from '../policy/platform-policy.js';
import type { PolicyProfile } from '../policy-profiles/policy-profiles.model.js';
import { policyProfilesOnPlan } from '../policy-profiles/policy-profiles.data.js';
import { TEMPLATES } from '../templates/templates.data.js';
import { DEFAULT_GRACE_SECONDS } from '../provisioning/client-secret.model.js';

/** The rate-limit window of the rate-limit middleware (requests a minute). */
const RATE_LIMIT_WINDOW_S = 60;

interface Capabilities {
  organizationId: string;
  plan: Plan;
  planLimits: {
    maxRegistrations: number | null;
    registrations: number;
    changeSets: boolean;
    grantTypes: string[];
    policyProfiles: string[];
  };
  grantedScopes: string[];
  role: GrantRole;
  clientTypes: {
    clientType: string;
    tokenEndpointAuthMethods: string[];
    requirePkce: boolean;
    grantTypes: string[];
    applicationTypes: { applicationType: string; grantTypes: string[]; redirectUris: boolean }[];
  }[];
  policyProfiles: Readonly<PolicyProfile>[];
  platformPolicy: PlatformPolicy;
  templates: { id: string; name: string; clientType: string; applicationType: string; policyProfileId: string }[];
  rateLimits: { limit: number; windowSeconds: number; policy: string; partition: 'subject and organization' };
  secretRotation: { overlap: boolean; defaultGraceSeconds: number };
}

export function buildCapabilities(input: {
  organization: Organization;
  scopes: ReadonlySet<string>;
  role: GrantRole;
  registrations: number;
  config: Pick<ServiceConfig, 'rateLimitFree' | 'rateLimitPro' | 'rateLimitEnterprise'> &
    Partial<Pick<ServiceConfig, 'provisioningSecretOverlap'>>;
}): Capabilities {
  const plan = planFor(input.organization.plan);
  const onPlan = (grants: readonly string[]) => grants.filter((g) => plan.grantTypes.includes(g));
  const profiles = policyProfilesOnPlan(plan);
  const limit = plan.rateLimitPerMinute(input.config);
  return {
    organizationId: input.organization.id,
    plan: plan.plan,
    planLimits: {
      maxRegistrations: plan.maxRegistrations,
      registrations: input.registrations,
      changeSets: plan.changeSets,
      grantTypes: [...plan.grantTypes],
      policyProfiles: profiles.map((p) => p.id),
    },
    grantedScopes: SCOPES.filter((s) => input.scopes.has(s)),
    role: input.role,
    clientTypes: clientTypeRules.map((c) => {
      const applicationTypes = c.applicationTypes
        .filter((a) =>
          profiles.some(
            (p) => p.appliesTo.includes(c.clientType) && p.constraints.applicationTypes.includes(a.applicationType),
          ),
        )
        .map((a) => ({
          applicationType: a.applicationType,
          grantTypes: onPlan(a.grantTypes),
          redirectUris: a.redirectUris,
        }));
      return {
        clientType: c.clientType,
        tokenEndpointAuthMethods: [...c.tokenEndpointAuthMethods],
        requirePkce: c.requirePkce,
        grantTypes: [...new Set(applicationTypes.flatMap((a) => a.grantTypes))],
        applicationTypes,
      };
    }),
    policyProfiles: profiles,
    platformPolicy,
    templates: TEMPLATES.filter((t) => plan.policyProfiles.includes(t.policyProfileId)).map((t) => ({
      id: t.id,
      name: t.name,
      clientType: t.clientType,
      applicationType: t.applicationType,
      policyProfileId: t.policyProfileId,
    })),
    rateLimits: {
      limit,
      windowSeconds: RATE_LIMIT_WINDOW_S,
      policy: `"${plan.plan}";q=${limit};w=${RATE_LIMIT_WINDOW_S}`,
      partition: 'subject and organization',
    },
    // Whether a rotation can keep the previous secret working for a grace (the authorization server holds two).
    secretRotation: {
      overlap: input.config.provisioningSecretOverlap === true,
      defaultGraceSeconds: input.config.provisioningSecretOverlap ? DEFAULT_GRACE_SECONDS : 0,
    },
  };
}
