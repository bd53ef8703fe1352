/** URLs in the client metadata besides redirect URIs (`clientUri`, `logoUri`, `jwksUri`): absolute https (RFC 7591 §2). */
import type { FieldError } from '../../../lib/app-error.js';
import { platformPolicy } from './platform-policy.js';
import type { PolicyContext } from './policy-context.js';

const URL_FIELDS = ['clientUri', 'logoUri', 'jwksUri'] as const;

export function metadataUrlProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  for (const field of URL_FIELDS) {
    const value = ctx.raw[field];
    if (value === undefined || value === null) continue;
    const path = `config.${field}`;
    if (typeof value !== 'string') {
      problems.push({ path, message: 'must be a string' });
      continue;
    }
    if (value.length > platformPolicy.urls.maxLength)
      problems.push({ path, message: `must be at most ${platformPolicy.urls.maxLength} characters` });
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
