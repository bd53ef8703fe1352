/** What every policy rule sees: the raw and the effective config, the client's kind, its profile and its plan. */
import type { PlanLimits } from '../../plans.js';
import type { PolicyProfile } from '../policy-profiles/policy-profiles.model.js';
import type { ApplicationType, ClientType, RegistrationConfig } from '../registrations/registrations.model.js';
import type { EffectiveConfig } from './effective-config.js';

export interface PolicyContext {
  /** As stored: tells "asked for no PKCE" apart from "left it to the default". */
  raw: RegistrationConfig;
  config: EffectiveConfig;
  clientType: ClientType;
  applicationType: ApplicationType;
  /** Undefined when `policyProfileId` names no profile (reported by the profile rules). */
  profile: Readonly<PolicyProfile> | undefined;
  plan: PlanLimits;
}
