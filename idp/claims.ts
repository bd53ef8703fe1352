/** Which claims each scope releases (OpenID Connect Core §5.4), limited to the scopes the provider accepts. */
const STANDARD_CLAIMS: Record<string, string[]> = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: [
    'name', 'family_name', 'given_name', 'middle_name', 'nickname', 'preferred_username', 'profile',
    'picture', 'website', 'gender', 'birthdate', 'zoneinfo', 'locale', 'updated_at',
  ],
  phone: ['phone_number', 'phone_number_verified'],
  address: ['address'],
};

export function claimsForScopes(scopes: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(Object.entries(STANDARD_CLAIMS).filter(([scope]) => scope === 'openid' || scopes.includes(scope)));
}

/** The identity claims a set of granted scopes releases from a user record (for RFC 9068 access tokens, §2.2.1). */
export function releasedClaims(user: Record<string, unknown>, grantedScopes: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const scope of grantedScopes) {
    if (scope === 'openid') continue;
    for (const claim of STANDARD_CLAIMS[scope] ?? []) if (user[claim] !== undefined) out[claim] = user[claim];
  }
  return out;
}
