/**
 * Keycloak (sources: keycloak.org "Server Administration Guide", sections on realm roles, client scopes and protocol
 * mappers): the issuer is `…/realms/{realm}`; access tokens carry `typ: "Bearer"`, `azp`, `preferred_username` and the
 * realm roles as `realm_access.roles`, groups as `groups` (the group membership mapper); ID tokens carry
 * `typ: "ID"` and `preferred_username`.
 */
import { defined, listOf, type Personality } from './personality.js';

const username = (user: { sub: string; preferred_username?: unknown }) =>
  typeof user.preferred_username === 'string' ? user.preferred_username : user.sub;

export const keycloak: Personality = {
  name: 'keycloak',
  issuerPath: (tenant) => `/realms/${tenant ?? 'gatehouse'}`,
  idTokenClaimNames: () => ['typ', 'preferred_username', 'groups'],
  idTokenClaims: ({ user }) =>
    defined({ typ: 'ID', preferred_username: username(user), groups: listOf(user, 'groups') }),
  accessTokenClaims: ({ user, clientId }) =>
    defined({
      typ: 'Bearer',
      azp: clientId,
      ...(user
        ? {
            preferred_username: username(user),
            realm_access: { roles: listOf(user, 'roles') ?? [] },
            groups: listOf(user, 'groups'),
          }
        : { preferred_username: `service-account-${clientId}` }),
    }),
};
