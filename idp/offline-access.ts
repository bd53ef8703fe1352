/**
 * Refresh tokens for `offline_access` without the client having to send `prompt=consent`. oidc-provider drops
 * `offline_access` from an authorization request whose prompt lacks `consent` (OpenID Connect Core §11); this
 * stub treats a request for offline access as asking for that consent, so the consent step (automatic under
 * --skip-prompt) grants it. `prompt=none` is left alone: it cannot be combined with consent, so no refresh token.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';

export function offlineAccessImpliesConsent(authorizationPath: string) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    if (ctx.method === 'GET' && ctx.path === authorizationPath) {
      const query = { ...ctx.query } as Record<string, string | string[] | undefined>;
      const { scope, prompt } = query;
      if (
        typeof scope === 'string' &&
        scope.split(' ').includes('offline_access') &&
        (prompt === undefined || typeof prompt === 'string')
      ) {
        const prompts = new Set((prompt ?? '').split(' ').filter(Boolean));
        if (!prompts.has('none') && !prompts.has('consent')) {
          prompts.add('consent');
          query.prompt = [...prompts].join(' ');
          ctx.query = query;
        }
      }
    }
    await next();
  };
}
