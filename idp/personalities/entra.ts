/**
 * Microsoft Entra ID, v2.0 tokens (sources: learn.microsoft.com "Access tokens in the Microsoft identity platform",
 * "ID token claims reference"): the issuer is `…/{tenant id}/v2.0`; tokens carry `tid` (tenant GUID), `oid` (the
 * user's or service principal's object GUID), `ver: "2.0"`, app `roles` and `groups` (object ids there; the users
 * file's values here) in both tokens; access tokens name the client in `azp` and the delegated scopes in `scp`
 * (space-separated), an application's own token has no `scp`.
 */
import { apiScopes, defined, listOf, stableUuid, type Personality } from './personality.js';

const tenantId = (issuer: string) => /\/([0-9a-f-]{36})\/v2\.0$/.exec(issuer)?.[1] ?? stableUuid(issuer);

export const entra: Personality = {
  name: 'entra',
  issuerPath: (tenant, root) => `/${stableUuid(`${root}|${tenant ?? ''}`)}/v2.0`,
  idTokenClaimNames: () => ['tid', 'oid', 'ver', 'roles', 'groups'],
  idTokenClaims: ({ user, issuer }) =>
    defined({
      tid: tenantId(issuer),
      oid: stableUuid(`user|${user.sub}`),
      ver: '2.0',
      roles: listOf(user, 'roles'),
      groups: listOf(user, 'groups'),
    }),
  accessTokenClaims: ({ user, clientId, scopes, issuer }) =>
    defined({
      tid: tenantId(issuer),
      oid: stableUuid(user ? `user|${user.sub}` : `client|${clientId}`),
      azp: clientId,
      ver: '2.0',
      ...(user ? { scp: apiScopes(scopes).join(' ') || undefined } : {}),
      roles: listOf(user, 'roles'),
      groups: listOf(user, 'groups'),
    }),
};
