/**
 * What oidc-provider learned about a request (the authenticated client, the grant type, the OAuth error), left on
 * the Node request by a Koa middleware so the Express side (request log line, testing API's request log) can say
 * which client called without parsing bodies or credentials itself.
 */
import type { IncomingMessage } from 'node:http';
import type { KoaContextWithOIDC } from 'oidc-provider';

export interface OidcRequestInfo {
  clientId?: string;
  grantType?: string;
  error?: string;
}

const INFO = Symbol('gatehouse.oidc-request-info');

export function requestInfo(req: IncomingMessage): OidcRequestInfo | undefined {
  return (req as IncomingMessage & { [INFO]?: OidcRequestInfo })[INFO];
}

/** Koa middleware for oidc-provider: runs the request, then notes its client, grant type and error. */
export async function noteRequestInfo(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  try {
    await next();
  } finally {
    const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    const body = ctx.body as { error?: unknown } | undefined;
    const params = oidc?.params as { grant_type?: unknown; client_id?: unknown } | undefined;
    const clientId = oidc?.client?.clientId ?? (typeof params?.client_id === 'string' ? params.client_id : undefined);
    (ctx.req as IncomingMessage & { [INFO]?: OidcRequestInfo })[INFO] = {
      clientId,
      grantType: typeof params?.grant_type === 'string' ? params.grant_type : undefined,
      error: body && typeof body === 'object' && typeof body.error === 'string' ? body.error : undefined,
    };
  }
}
