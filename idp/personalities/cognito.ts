/**
 * Amazon Cognito user pools (sources: docs.aws.amazon.com Cognito Developer Guide "Understanding the access token",
 * "Understanding the identity (ID) token"): the issuer is `…/{region}_{pool id}`; `token_use` is `id` or `access`;
 * groups are `cognito:groups` in both tokens; the ID token names the user in `cognito:username`, the access token in
 * `username` and the client in `client_id`.
 */
import { defined, listOf, type Personality } from './personality.js';

const username = (user: { sub: string; preferred_username?: unknown }) =>
  typeof user.preferred_username === 'string' ? user.preferred_username : user.sub;

export const cognito: Personality = {
  name: 'cognito',
  issuerPath: (tenant) => `/us-east-1_${tenant ?? 'gatehouse'}`,
  idTokenClaimNames: () => ['token_use', 'cognito:username', 'cognito:groups'],
  idTokenClaims: ({ user }) =>
    defined({ token_use: 'id', 'cognito:username': username(user), 'cognito:groups': listOf(user, 'groups') }),
  accessTokenClaims: ({ user, clientId }) =>
    defined({
      token_use: 'access',
      client_id: clientId,
      username: user ? username(user) : undefined,
      'cognito:groups': listOf(user, 'groups'),
    }),
};
