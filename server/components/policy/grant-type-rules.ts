/**
 * Grant and response types (RFC 7591 §2.1, RFC 9700 §2.1.2 and §2.4): no implicit, no password, `code` ↔
 * `authorization_code`, refresh tokens only beside a grant that issues them, and the application type, profile
 * and plan each allowing every grant.
 */
import type { FieldError } from '../../../lib/app-error.js';
import { applicationTypeRule, GRANT_TYPES, platformPolicy } from './platform-policy.js';
import type { PolicyContext } from './policy-context.js';

const FORBIDDEN_WHY: Record<string, string> = {
  implicit: 'the implicit grant is not allowed: it exposes tokens in the front channel (RFC 9700 §2.1.2)',
  password: 'the resource owner password grant must not be used (RFC 9700 §2.4)',
};

export function grantTypeProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  const { grantTypes, responseTypes } = ctx.config;
  const appRule = applicationTypeRule(ctx.applicationType)?.rule;
  const seen = new Set<string>();

  if (grantTypes.length === 0)
    problems.push({ path: 'config.grantTypes', message: 'must name at least one grant type' });
  grantTypes.forEach((grant, i) => {
    const path = `config.grantTypes[${i}]`;
    if (seen.has(grant)) problems.push({ path, message: `duplicates ${grant}` });
    seen.add(grant);
    const forbidden = FORBIDDEN_WHY[grant];
    if (forbidden) return void problems.push({ path, message: forbidden });
    if (!(GRANT_TYPES as readonly string[]).includes(grant))
      return void problems.push({ path, message: `${grant} is not a supported grant type` });
    if (appRule && !appRule.grantTypes.includes(grant))
      problems.push({ path, message: `${grant} is not available to ${ctx.applicationType} applications` });
    if (ctx.profile && !ctx.profile.constraints.grantTypes.includes(grant)) {
      problems.push({ path, message: `${grant} is not allowed by policy profile ${ctx.profile.id}` });
    }
    if (!ctx.plan.grantTypes.includes(grant))
      problems.push({ path, message: `${grant} is not available on the ${ctx.plan.plan} plan` });
  });

  if (
    grantTypes.includes('refresh_token') &&
    !platformPolicy.grantTypes.refreshTokenNeeds.some((g) => grantTypes.includes(g))
  ) {
    problems.push({
      path: 'config.grantTypes',
      message: 'refresh_token needs a grant that issues refresh tokens (authorization_code or the device grant)',
    });
  }

  responseTypes.forEach((type, i) => {
    if (!platformPolicy.responseTypes.allowed.includes(type)) {
      problems.push({
        path: `config.responseTypes[${i}]`,
        message: `${JSON.stringify(type)} is not allowed: only "code" (token response types are the implicit and hybrid flows, RFC 9700 §2.1.2)`,
      });
    }
  });
  // RFC 7591 §2.1: the authorization_code grant goes with the code response type, both ways.
  if (grantTypes.includes('authorization_code') && !responseTypes.includes('code')) {
    problems.push({
      path: 'config.responseTypes',
      message: 'must include "code" because grantTypes includes authorization_code (RFC 7591 §2.1)',
    });
  }
  if (responseTypes.includes('code') && !grantTypes.includes('authorization_code')) {
    problems.push({
      path: 'config.grantTypes',
      message: 'must include authorization_code because responseTypes includes "code" (RFC 7591 §2.1)',
    });
  }
  return problems;
}
