/**
 * The submit-time policy check (docs/architecture.md §1.4): the registration against the platform policy, its policy profile
 * and its organization's plan. Returns EVERY violation (empty = valid), each with a dotted path such as
 * `config.redirectUris[2]`, so one 422 tells the caller everything to fix.
 */
import type { FieldError } from '../../../lib/app-error.js';
import { planFor } from '../../plans.js';
import type { Plan } from '../organizations/organizations.model.js';
import { findPolicyProfile } from '../policy-profiles/policy-profiles.data.js';
import type { ApplicationType, ClientType, RegistrationConfig } from '../registrations/registrations.model.js';
import { clientAuthenticationProblems } from './client-authentication-rules.js';
import { clientKindProblems } from './client-kind-rules.js';
import { effectiveConfig } from './effective-config.js';
import { grantTypeProblems } from './grant-type-rules.js';
import type { PolicyContext } from './policy-context.js';
import { listProblems } from './list-rules.js';
import { metadataUrlProblems } from './metadata-url-rules.js';
import { redirectUriFieldProblems } from './redirect-uri-rules.js';

export interface RegistrationPolicyInput {
  config: RegistrationConfig;
  clientType: ClientType;
  applicationType: ApplicationType;
  policyProfileId: string;
  plan: Plan;
}

export function validateRegistration(input: RegistrationPolicyInput): FieldError[] {
  const raw = input.config ?? {};
  const ctx: PolicyContext = {
    raw,
    config: effectiveConfig(raw, input.clientType, input.applicationType),
    clientType: input.clientType,
    applicationType: input.applicationType,
    profile: findPolicyProfile(input.policyProfileId),
    plan: planFor(input.plan),
  };
  return [
    ...clientKindProblems(ctx),
    ...redirectUriFieldProblems(ctx),
    ...grantTypeProblems(ctx),
    ...clientAuthenticationProblems(ctx),
    ...metadataUrlProblems(ctx),
    ...listProblems(ctx),
  ];
}
