/**
 * Sign-in, callback and sign-out routes. Only users whose access token carries `gatehouse:review` or
 * `gatehouse:admin` get a session; the session id is fresh after sign-in and gone after sign-out.
 */
import { Router } from 'express';
import { consoleError } from './console-errors.js';
import type { Logger } from '../../../lib/logger.js';
import { pageContext, rolesOf, sessionOf } from './console-context.js';
import type { SessionStore } from './console-session.js';
import type { ConsoleOidcClient } from './oidc-client.js';
import { messagePage } from './views/message-page.js';

interface SignInRoutesOptions {
  sessions: SessionStore;
  client: ConsoleOidcClient;
  redirectUri: string;
  logger: Logger;
  now: () => number;
  sessionTtlMs: number;
}

/** Only a path inside the console is a place to come back to (no open redirect). */
function safeReturnTo(base: string, value: unknown): string {
  const home = base || '/';
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return home;
  return value === base || value.startsWith(`${base}/`) || value.startsWith(`${base}?`) ? value : home;
}

export function createSignInRoutes(options: SignInRoutesOptions): Router {
  const router = Router();

  router.get('/login', async (req, res) => {
    const returnTo = safeReturnTo(req.baseUrl, req.query.returnTo);
    // Already signed in: a link to /login (even from another site) must not end the session it would replace.
    if (sessionOf(res)?.reviewer) {
      res.redirect(303, returnTo);
      return;
    }
    let started;
    try {
      started = await options.client.start(returnTo);
    } catch (error) {
      // Discovery failed: the IdP is down or misconfigured. Retrying later may work; nothing is cached.
      options.logger.warn(
        { err: { message: (error as Error).message } },
        'console sign-in could not reach the identity provider',
      );
      throw consoleError(
        'idp_unavailable',
        'The identity provider cannot be reached right now; try again in a moment.',
      );
    }
    const { url, transaction } = started;
    options.sessions.start(req, res, { signIn: transaction });
    res.redirect(303, url.href);
  });

  router.get('/callback', async (req, res) => {
    const transaction = sessionOf(res)?.signIn;
    const again = { href: `${req.baseUrl}/login`, label: 'Sign in again' };
    if (!transaction) {
      res
        .status(400)
        .send(
          messagePage(
            pageContext(req, res),
            'Sign-in failed',
            'The sign-in took too long or was started elsewhere.',
            again,
          ),
        );
      return;
    }
    // The URL the IdP redirected to: our registered redirect URI with the query it carried (RFC 6749 §4.1.2).
    const callbackUrl = new URL(options.redirectUri);
    callbackUrl.search = new URL(req.originalUrl, 'http://localhost').search;
    let result;
    try {
      result = await options.client.finish(callbackUrl, transaction);
    } catch (error) {
      options.logger.warn({ err: { message: (error as Error).message } }, 'console sign-in failed');
      options.sessions.end(req, res);
      res
        .status(401)
        .send(
          messagePage(
            pageContext(req, res),
            'Sign-in failed',
            'The identity provider did not confirm your sign-in.',
            again,
          ),
        );
      return;
    }
    if (!rolesOf(result.reviewer).includes('reviewer')) {
      options.sessions.end(req, res);
      throw consoleError(
        'not_a_reviewer',
        'Your account has neither the gatehouse:review nor the gatehouse:admin scope.',
      );
    }
    const ttl = Math.max(0, Math.min(options.sessionTtlMs, (result.expiresAt ?? Infinity) - options.now()));
    const session = options.sessions.start(req, res, { reviewer: result.reviewer }, ttl);
    session.flash = `Signed in as ${result.reviewer.name ?? result.reviewer.sub}.`;
    res.redirect(303, transaction.returnTo);
  });

  return router;
}
