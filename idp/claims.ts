/**
 * Which claims each scope releases (OpenID Connect Core §5.4), limited to the scopes the provider accepts.
 * Claims of the configured users that are not standard (groups, roles, tenant …) are released with `profile`,
 * so a users file can add claims without further configuration.
 */
import { NOT_CLAIMS } from './accounts.js';

const STANDARD_CLAIMS: Record<string, string[]> = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: [
    'name',
    'family_name',
    'given_name',
    'middle_name',
    'nickname',
    'preferred_username',
    'profile',
    'picture',
    'website',
    'gender',
    'birthdate',
    'zoneinfo',
    'locale',
    'updated_at',
  ],
  phone: ['phone_number', 'phone_number_verified'],
  address: ['address'],
};

const STANDARD = new Set(Object.values(STANDARD_CLAIMS).flat());

export type ClaimsMapping = Record<string, string[]>;

export function claimsForScopes(
  scopes: readonly string[],
  users: readonly Record<string, unknown>[] = [],
): ClaimsMapping {
  const custom = [
    ...new Set(
      users
        .flatMap((u) => Object.keys(u))
        .filter((claim) => !STANDARD.has(claim) && !(NOT_CLAIMS as readonly string[]).includes(claim)),
    ),
  ];
  const mapping: ClaimsMapping = {};
  for (const [scope, claims] of Object.entries(STANDARD_CLAIMS)) {
    if (scope === 'openid' || scopes.includes(scope))
      mapping[scope] = scope === 'profile' ? [...claims, ...custom] : [...claims];
  }
  return mapping;
}

/** The identity claims a set of granted scopes releases from a user record (for RFC 9068 access tokens, §2.2.1). */
export function releasedClaims(
  user: Record<string, unknown>,
  grantedScopes: Iterable<string>,
  mapping: ClaimsMapping,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const scope of grantedScopes) {
    if (scope === 'openid') continue;
    for (const claim of mapping[scope] ?? []) if (user[claim] !== undefined) out[claim] = user[claim];
  }
  return out;
}
