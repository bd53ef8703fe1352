/**
 * Okta, custom authorization server "default" (sources: developer.okta.com "OpenID Connect & OAuth 2.0 API" token
 * claims, "Customize tokens returned from Okta"): the issuer is `…/oauth2/default`; access tokens carry `ver: 1`,
 * `cid` (client id), `uid` (user id) and `scp` as an array of scopes; `groups` when a groups claim is configured.
 */
import { defined, listOf, type Personality } from './personality.js';

export const okta: Personality = {
  name: 'okta',
  issuerPath: (tenant) => `${tenant ? `/${tenant}` : ''}/oauth2/default`,
  idTokenClaimNames: () => ['ver', 'groups'],
  idTokenClaims: ({ user }) => defined({ ver: 1, groups: listOf(user, 'groups') }),
  accessTokenClaims: ({ user, clientId, scopes }) =>
    defined({ ver: 1, cid: clientId, uid: user?.sub, scp: [...scopes], groups: listOf(user, 'groups') }),
};
