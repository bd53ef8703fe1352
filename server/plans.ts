/** What each plan allows (docs/architecture.md §1.8): registration quota, change sets, grant types, profiles, rate limit. */
import type { ServiceConfig } from './config.js';
import type { Plan } from './components/organizations/organizations.model.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

type RateLimitSettings = Pick<ServiceConfig, 'rateLimitFree' | 'rateLimitPro' | 'rateLimitEnterprise'>;

export interface PlanLimits {
  plan: Plan;
  /** Registrations an organization may hold (any status); null = unlimited. */
  maxRegistrations: number | null;
  /** Whether change sets may be proposed against active clients. */
  changeSets: boolean;
  /** Grant types registrations may use. */
  grantTypes: readonly string[];
  /** Policy profiles registrations may use. */
  policyProfiles: readonly string[];
  /** Requests a minute per subject and organization, from the service settings. */
  rateLimitPerMinute: (config: RateLimitSettings) => number;
}

const BASE_GRANTS = ['authorization_code', 'refresh_token'] as const;

/*
 * pp_service allows client_credentials only, which starts at pro; offering it on free would advertise a profile no
 * registration could satisfy, so free sees pp_standard alone.
 */
const plans: Readonly<Record<Plan, PlanLimits>> = Object.freeze({
  free: Object.freeze({
    plan: 'free',
    maxRegistrations: 5,
    changeSets: false,
    grantTypes: Object.freeze([...BASE_GRANTS]),
    policyProfiles: Object.freeze(['pp_standard']),
    rateLimitPerMinute: (config: RateLimitSettings) => config.rateLimitFree,
  }),
  pro: Object.freeze({
    plan: 'pro',
    maxRegistrations: 50,
    changeSets: true,
    grantTypes: Object.freeze([...BASE_GRANTS, 'client_credentials']),
    policyProfiles: Object.freeze(['pp_standard', 'pp_service']),
    rateLimitPerMinute: (config: RateLimitSettings) => config.rateLimitPro,
  }),
  enterprise: Object.freeze({
    plan: 'enterprise',
    maxRegistrations: null,
    changeSets: true,
    grantTypes: Object.freeze([...BASE_GRANTS, 'client_credentials', DEVICE_CODE_GRANT]),
    policyProfiles: Object.freeze(['pp_standard', 'pp_service', 'pp_fapi2']),
    rateLimitPerMinute: (config: RateLimitSettings) => config.rateLimitEnterprise,
  }),
});

export function planFor(plan: Plan): PlanLimits {
  const limits = plans[plan];
  if (!limits) throw new TypeError(`unknown plan ${JSON.stringify(plan)}`);
  return limits;
}
