/**
 * A personality's ID token claims (idp/personalities/): the account's claims for an ID token gain what that provider
 * puts there (`tid`/`oid`, `token_use`, namespaced roles …); userinfo answers stay the users file's claims.
 */
import type { FindAccount } from 'oidc-provider';
import type { Personality } from './personalities/personality.js';

export function withPersonalityClaims(findAccount: FindAccount, personality: Personality, issuer: string): FindAccount {
  return async (ctx, id, token) => {
    const account = await findAccount(ctx, id, token);
    if (!account) return account;
    const claims = account.claims.bind(account);
    return {
      ...account,
      async claims(use, scope, requested, rejected) {
        const base = await claims(use, scope, requested, rejected);
        if (use !== 'id_token') return base;
        const shaped = personality.idTokenClaims({
          user: base,
          clientId: ctx.oidc?.client?.clientId ?? '',
          scopes: scope.split(' '),
          issuer,
        });
        return { ...base, ...shaped };
      },
    };
  };
}
