/**
 * Scopes per user (docs/architecture.md §3.5): a user's `scopes` are the only ones they are granted, whatever a client
 * asks for (`openid` always: it asks for nothing but the identity); without `scopes`, any. Consent grants the allowed
 * ones and rejects the rest in the grant (so oidc-provider does not ask again and issues tokens without them), and an
 * earlier grant that no longer fits the user's scopes (the testing API changed them) is not reused.
 */
import type { Configuration, Grant, KoaContextWithOIDC } from 'oidc-provider';
import type { AccountDirectory, IdpUser } from './accounts.js';

/** Whether `user` may be granted `scope`. */
function mayHaveScope(user: IdpUser | undefined, scope: string): boolean {
  const allowed = user?.scopes;
  return !Array.isArray(allowed) || scope === 'openid' || allowed.includes(scope);
}

/** The asked scopes split into those the user may have and those refused. */
export function splitScopes(
  user: IdpUser | undefined,
  scopes: readonly string[],
): { granted: string[]; refused: string[] } {
  const granted = scopes.filter((s) => mayHaveScope(user, s));
  return { granted, refused: scopes.filter((s) => !granted.includes(s)) };
}

/** Every scope the grant holds or rejected, across OIDC and resource scopes. */
function grantScopes(grant: Grant): { held: string[]; rejected: string[] } {
  const words = (text: string) => text.split(' ').filter(Boolean);
  const resources = Object.keys(grant.resources ?? {});
  return {
    held: [...words(grant.getOIDCScope()), ...resources.flatMap((r) => words(grant.getResourceScope(r)))],
    rejected: [
      ...words(grant.getRejectedOIDCScope()),
      ...resources.flatMap((r) => words(grant.getRejectedResourceScope(r))),
    ],
  };
}

/** oidc-provider's `loadExistingGrant`, except that a grant out of step with the user's scopes is not reused. */
export function loadGrantInStep(accounts: AccountDirectory): NonNullable<Configuration['loadExistingGrant']> {
  return async (ctx: KoaContextWithOIDC) => {
    const grantId =
      (ctx.oidc.result?.consent as { grantId?: string } | undefined)?.grantId ??
      ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
    if (!grantId) return undefined;
    const grant = await ctx.oidc.provider.Grant.find(grantId);
    if (!grant?.accountId) return grant;
    const user = accounts.lookup(grant.accountId);
    const { held, rejected } = grantScopes(grant);
    const inStep = held.every((s) => mayHaveScope(user, s)) && !rejected.some((s) => mayHaveScope(user, s));
    return inStep ? grant : undefined;
  };
}
