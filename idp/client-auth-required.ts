/**
 * Introspection and revocation without client authentication answer 401 `invalid_client` (RFC 7662 §2.1 and
 * RFC 7009 §2.1 require the caller to authenticate; RFC 6749 §5.2 makes a missing authentication `invalid_client`
 * with 401 and a WWW-Authenticate challenge). oidc-provider answers 400 `invalid_request` there.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';

export function clientAuthRequired(paths: string[]) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    if (!paths.includes(ctx.path) || ctx.status !== 400) return;
    const body = ctx.body as { error?: string; error_description?: string } | undefined;
    if (body?.error !== 'invalid_request' || body.error_description !== 'no client authentication mechanism provided')
      return;
    ctx.status = 401;
    ctx.set('www-authenticate', 'Basic realm="token"');
    ctx.body = {
      error: 'invalid_client',
      error_description: 'client authentication is required (HTTP Basic or client_secret_post)',
    };
  };
}
