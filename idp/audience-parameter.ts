/**
 * Auth0's `audience` parameter (personality auth0): at /auth and /token it names the API a token is for, which this
 * IdP knows as RFC 8707's `resource`; a request with `audience` and no `resource` gets `resource` = that audience.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { readBody, replayBody } from './request-body.js';

export function audienceParameter([authorization, token]: readonly string[]) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    if (ctx.method === 'GET' && ctx.path === authorization) {
      const query = { ...ctx.query } as Record<string, string | string[] | undefined>;
      if (typeof query.audience === 'string' && query.resource === undefined) {
        query.resource = query.audience;
        ctx.query = query;
      }
    } else if (ctx.method === 'POST' && ctx.path === token && ctx.is('application/x-www-form-urlencoded')) {
      const bytes = await readBody(ctx.req);
      if (!bytes) {
        ctx.status = 400;
        ctx.body = { error: 'invalid_request', error_description: 'the request body is too large' };
        return;
      }
      const form = new URLSearchParams(bytes.toString('utf8'));
      const audience = form.get('audience');
      if (audience && !form.has('resource')) form.set('resource', audience);
      replayBody(ctx.req, audience ? Buffer.from(form.toString()) : bytes);
    }
    await next();
  };
}
