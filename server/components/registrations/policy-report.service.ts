/**
 * Dry-run policy checks (docs/architecture.md §R.11): what submit would say, without submitting — every violation of the
 * platform policy, the policy profile and the plan, and the effective config the authorization server would use.
 */
import type { FieldError } from '../../../lib/app-error.js';
import { validateBody } from '../../http/validate-body.js';
import { effectiveConfig, type EffectiveConfig } from '../policy/effective-config.js';
import { validateRegistration } from '../policy/validate-registration.js';
import type { ApplicationType, ClientType, RegistrationConfig } from './registrations.model.js';
import { getRegistration, REGISTRATION_CREATE_SCHEMA, type RegistrationCreateInput } from './registrations.service.js';
import type { ServiceDeps } from './service-deps.js';
import type { RequestContext } from './request-context.js';
import { resolveTemplate } from './template-defaults.js';

interface PolicyReport {
  valid: boolean;
  violations: FieldError[];
  policyProfileId: string;
  effectiveConfig: EffectiveConfig;
}

interface Candidate {
  config: RegistrationConfig;
  clientType: ClientType;
  applicationType: ApplicationType;
  policyProfileId: string;
}

function report(candidate: Candidate, context: RequestContext): PolicyReport {
  const violations = validateRegistration({ ...candidate, plan: context.organization.plan });
  return {
    valid: violations.length === 0,
    violations,
    policyProfileId: candidate.policyProfileId,
    effectiveConfig: effectiveConfig(candidate.config, candidate.clientType, candidate.applicationType),
  };
}

/** The report for a stored registration: exactly what submitting it now would check. */
export async function registrationPolicyReport(
  deps: ServiceDeps,
  context: RequestContext,
  id: string,
): Promise<PolicyReport> {
  return report(await getRegistration(deps, context, id), context);
}

/** The report for a create body (same schema and template rules as create), storing nothing. */
export function draftPolicyReport(context: RequestContext, body: unknown): PolicyReport {
  const input = validateBody<RegistrationCreateInput>(REGISTRATION_CREATE_SCHEMA, body);
  const template = input.templateId === undefined ? undefined : resolveTemplate(input.templateId);
  const clientType = input.clientType ?? template?.clientType;
  const applicationType = input.applicationType ?? template?.applicationType;
  const policyProfileId = input.policyProfileId ?? template?.policyProfileId;
  if (!clientType || !applicationType || !policyProfileId)
    throw new Error('schema guarantees these with or without a template');
  return report(
    {
      config: { ...(template?.defaults ?? {}), ...(input.config ?? {}) },
      clientType,
      applicationType,
      policyProfileId,
    },
    context,
  );
}
