/**
 * Auth0 (sources: auth0.com/docs "Access Token Profiles", "Get Access Tokens", "Create Custom Claims"): the issuer
 * is the tenant domain with a trailing slash; `audience` names the API; access tokens carry `azp`, `permissions` (RBAC)
 * and `gty: client-credentials` for machine tokens; roles and groups are namespaced custom claims (here under the
 * issuer URL, as Auth0 recommends a URL the tenant controls).
 */
import { apiScopes, defined, listOf, type Personality } from './personality.js';

export const auth0: Personality = {
  name: 'auth0',
  issuerPath: (tenant) => (tenant ? `/${tenant}` : ''),
  trailingSlash: true,
  audienceParameter: true,
  idTokenClaimNames: (issuer) => [`${issuer}roles`, `${issuer}groups`],
  idTokenClaims: ({ user, issuer }) =>
    defined({ [`${issuer}roles`]: listOf(user, 'roles'), [`${issuer}groups`]: listOf(user, 'groups') }),
  accessTokenClaims: ({ user, clientId, scopes, issuer }) =>
    defined({
      azp: clientId,
      permissions: apiScopes(scopes),
      ...(user
        ? { [`${issuer}roles`]: listOf(user, 'roles'), [`${issuer}groups`]: listOf(user, 'groups') }
        : { gty: 'client-credentials' }),
    }),
};
