/** Client type × application type × policy profile × plan: whether this kind of client may exist at all. */
import type { FieldError } from '../../../lib/app-error.js';
import { applicationTypeRule, clientTypeRule } from './platform-policy.js';
import type { PolicyContext } from './policy-context.js';
import { isPolicyProfileOnPlan } from '../policy-profiles/policy-profiles.data.js';

export function clientKindProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  const appRule = applicationTypeRule(ctx.applicationType);
  if (!clientTypeRule(ctx.clientType)) problems.push({ path: 'clientType', message: 'must be public or confidential' });
  if (!appRule) problems.push({ path: 'applicationType', message: 'must be web, spa, native or service' });
  else if (appRule.clientType !== ctx.clientType) {
    // RFC 8252 §8.5: native apps cannot keep secrets; browsers cannot either; servers can.
    problems.push({
      path: 'applicationType',
      message: `${ctx.applicationType} applications must be ${appRule.clientType} clients`,
    });
  }

  const profile = ctx.profile;
  if (!profile) {
    problems.push({ path: 'policyProfileId', message: 'names no policy profile' });
    return problems;
  }
  if (!isPolicyProfileOnPlan(profile.id, ctx.plan)) {
    problems.push({ path: 'policyProfileId', message: `${profile.id} is not available on the ${ctx.plan.plan} plan` });
  }
  if (!profile.appliesTo.includes(ctx.clientType)) {
    problems.push({
      path: 'clientType',
      message: `policy profile ${profile.id} applies to ${profile.appliesTo.join(' and ')} clients only`,
    });
  }
  if (!profile.constraints.applicationTypes.includes(ctx.applicationType)) {
    problems.push({
      path: 'applicationType',
      message: `policy profile ${profile.id} allows ${profile.constraints.applicationTypes.join(', ')} applications only`,
    });
  }
  return problems;
}
