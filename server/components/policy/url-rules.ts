/** Redirect URI lists, other URLs (`clientUri`, `logoUri`, `jwksUri`), scopes and contacts. */
import type { FieldError } from '../../../lib/app-error.js';
import { applicationTypeRule, platformPolicy } from './platform-policy.js';
import type { PolicyContext } from './policy-context.js';
import { redirectUriListProblems } from './redirect-uri-rules.js';

const URL_FIELDS = ['clientUri', 'logoUri', 'jwksUri'] as const;

export function redirectUriProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  const { redirectUris, postLogoutRedirectUris, grantTypes } = ctx.config;
  const forbiddenBy =
    ctx.profile?.constraints.redirectUris === 'forbidden'
      ? `policy profile ${ctx.profile.id}`
      : applicationTypeRule(ctx.applicationType)?.rule.redirectUris === false
        ? `${ctx.applicationType} applications`
        : undefined;

  for (const [field, uris] of [['redirectUris', redirectUris], ['postLogoutRedirectUris', postLogoutRedirectUris]] as const) {
    const path = `config.${field}`;
    if (forbiddenBy && uris.length > 0) {
      problems.push({ path, message: `must be empty: ${forbiddenBy} do not use browser redirects` });
      continue;
    }
    problems.push(...redirectUriListProblems(uris, path, ctx.applicationType, platformPolicy[field].maxCount));
  }
  // RFC 6749 §3.1.2.2 / RFC 9700 §4.1.1: a code flow client registers the exact URIs codes may be sent to.
  if (!forbiddenBy && grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    problems.push({ path: 'config.redirectUris', message: 'must list at least one redirect URI for the authorization_code grant' });
  }
  return problems;
}

export function urlProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  for (const field of URL_FIELDS) {
    const value = ctx.raw[field];
    if (value === undefined || value === null) continue;
    const path = `config.${field}`;
    if (typeof value !== 'string') {
      problems.push({ path, message: 'must be a string' });
      continue;
    }
    if (value.length > platformPolicy.urls.maxLength) problems.push({ path, message: `must be at most ${platformPolicy.urls.maxLength} characters` });
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      problems.push({ path, message: 'must be an absolute https URL' });
      continue;
    }
    if (url.protocol !== 'https:') problems.push({ path, message: 'must use https' });
    if (url.username || url.password) problems.push({ path, message: 'must not contain user information (user@host)' });
    if (value.includes('#')) problems.push({ path, message: 'must not contain a fragment' });
  }
  return problems;
}

export function listProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  for (const [field, max] of [['scopes', platformPolicy.scopes.maxCount], ['contacts', platformPolicy.contacts.maxCount]] as const) {
    const values = ctx.config[field];
    if (values.length > max) problems.push({ path: `config.${field}`, message: `must have at most ${max} entries` });
    const seen = new Map<string, number>();
    values.forEach((value, i) => {
      const first = seen.get(value);
      if (first !== undefined) problems.push({ path: `config.${field}[${i}]`, message: `duplicates config.${field}[${first}]` });
      else seen.set(value, i);
    });
  }
  return problems;
}
