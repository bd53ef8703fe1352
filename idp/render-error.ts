/** oidc-provider's HTML error renderer, replaced: our page, escaped values, no stack, no internals on 5xx. */
import type { Configuration } from 'oidc-provider';
import { errorPage } from './views/error-page.js';

export const renderError: NonNullable<Configuration['renderError']> = async (ctx, out) => {
  ctx.type = 'html';
  const serverSide = ctx.status >= 500;
  ctx.body = errorPage(
    out.error ?? 'server_error',
    serverSide ? 'The identity provider could not complete the request.' : out.error_description,
  );
};
