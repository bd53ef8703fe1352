/**
 * Redirect URI rules (RFC 9700 §4.1, RFC 8252 §7–8, RFC 6749 §3.1.2): every problem of every URI, with its path.
 * URIs are checked with the WHATWG URL parser, never a regular expression over the whole URI (ReDoS).
 */
import type { FieldError } from '../../../lib/app-error.js';
import type { ApplicationType } from '../registrations/registrations.model.js';
import { applicationTypeRule, platformPolicy } from './platform-policy.js';
import type { PolicyContext } from './policy-context.js';

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** Reverse-DNS notation of a domain: at least two dot-separated labels (RFC 8252 §7.1). */
const REVERSE_DNS = /^[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))+$/;

const rules = platformPolicy.redirectUris;

/** The problems of one URI; `path` is e.g. `config.redirectUris[2]`. */
function redirectUriProblems(raw: string, path: string, applicationType: ApplicationType): FieldError[] {
  const problems: FieldError[] = [];
  const add = (message: string) => problems.push({ path, message });

  if (raw.length > rules.maxLength) add(`must be at most ${rules.maxLength} characters`);
  const scheme = SCHEME.exec(raw)?.[1]?.toLowerCase();
  if (!scheme) {
    add('must be an absolute URI');
    return problems;
  }
  if (rules.forbiddenSchemes.includes(scheme)) {
    add(`must not use the ${scheme}: scheme`);
    return problems;
  }
  if (raw.includes('*')) add('must not contain wildcards: redirect URIs are matched exactly (RFC 9700 §4.1.3)');
  if (raw.includes('#')) add('must not contain a fragment (RFC 6749 §3.1.2)');

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    add('is not a valid URI');
    return problems;
  }
  if (url.username || url.password) add('must not contain user information (user@host)');
  if (url.href !== raw && !raw.includes('#') && !raw.includes('*')) {
    add(`must be written exactly as it will be matched: ${JSON.stringify(url.href)} (RFC 9700 §4.1.3)`);
  }

  if (scheme === 'https') {
    if (!url.hostname) add('must name a host');
  } else if (scheme === 'http') {
    const loopback = rules.loopbackHosts.includes(url.hostname);
    if (!rules.loopbackHttpFor.includes(applicationType)) {
      add('must use https (http is allowed only for loopback redirects of native apps, RFC 8252 §7.3)');
    } else if (url.hostname === 'localhost') {
      add('must use a loopback IP literal (127.0.0.1 or [::1]) instead of localhost (RFC 8252 §8.3)');
    } else if (!loopback) {
      add('must use https unless the host is the loopback address 127.0.0.1 or [::1] (RFC 8252 §7.3)');
    }
  } else if (!rules.privateUseSchemesFor.includes(applicationType)) {
    add('must use https (private-use URI schemes are for native apps only, RFC 8252 §7.1)');
  } else {
    if (!REVERSE_DNS.test(scheme))
      add('must use a reverse-DNS private-use scheme such as com.example.app (RFC 8252 §7.1)');
    if (!/^[^:]+:\/(?!\/)/.test(raw))
      add('must have the form com.example.app:/path, with a single slash and no host (RFC 8252 §7.1)');
  }
  return problems;
}

/** Problems of a whole list: count cap, duplicates, and every URI's own problems. */
function redirectUriListProblems(
  uris: readonly string[],
  path: string,
  applicationType: ApplicationType,
  maxCount: number,
): FieldError[] {
  const problems: FieldError[] = [];
  if (uris.length > maxCount) problems.push({ path, message: `must have at most ${maxCount} entries` });
  const seen = new Map<string, number>();
  uris.forEach((uri, index) => {
    const itemPath = `${path}[${index}]`;
    const first = seen.get(uri);
    if (first !== undefined) problems.push({ path: itemPath, message: `duplicates ${path}[${first}]` });
    else seen.set(uri, index);
    problems.push(...redirectUriProblems(uri, itemPath, applicationType));
  });
  return problems;
}

/** Both redirect URI lists of a registration, plus whether its kind may (or must) have any. */
export function redirectUriFieldProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  const { redirectUris, postLogoutRedirectUris, grantTypes } = ctx.config;
  const forbiddenBy =
    ctx.profile?.constraints.redirectUris === 'forbidden'
      ? `policy profile ${ctx.profile.id}`
      : applicationTypeRule(ctx.applicationType)?.rule.redirectUris === false
        ? `the ${ctx.applicationType} application type`
        : undefined;

  for (const [field, uris] of [
    ['redirectUris', redirectUris],
    ['postLogoutRedirectUris', postLogoutRedirectUris],
  ] as const) {
    const path = `config.${field}`;
    if (forbiddenBy && uris.length > 0) {
      problems.push({ path, message: `must be empty: ${forbiddenBy} allows no browser redirects` });
      continue;
    }
    problems.push(...redirectUriListProblems(uris, path, ctx.applicationType, platformPolicy[field].maxCount));
  }
  // RFC 6749 §3.1.2.2 / RFC 9700 §4.1.1: a code flow client registers the exact URIs codes may be sent to.
  if (!forbiddenBy && grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    problems.push({
      path: 'config.redirectUris',
      message: 'must list at least one redirect URI for the authorization_code grant',
    });
  }
  return problems;
}
