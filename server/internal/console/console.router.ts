/**
 * The review console: server-rendered pages for reviewers and admins, mounted on the internal app at
 * `/console`. No JavaScript and no external assets: every page works with plain links and forms. Sign-in is
 * OpenID Connect against the configured authorization server; every form carries a CSRF token.
 */
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { isAppError } from '../../../lib/app-error.js';
import { createAccessRoutes } from './access.routes.js';
import type { ConsoleDeps } from './console-deps.js';
import { pageContext, requireCsrf, requireReviewer } from './console-context.js';
import { createSessionStore } from './console-session.js';
import { createOidcClient } from './oidc-client.js';
import { createReviewRoutes } from './review.routes.js';
import { createSignInRoutes } from './sign-in.routes.js';
import { CONSOLE_CSS } from './views/console-css.js';
import { messagePage } from './views/message-page.js';

const DEFAULT_SESSION_TTL_S = 8 * 3600;

/** Pages are private and never framed; styles come only from the console (CSP, RFC 7034 via frame-ancestors). */
const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set({
    'Content-Security-Policy':
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'Cache-Control': 'no-store',
    // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on our own form posts.
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  });
  next();
};

/** Where "back" is after a refused form: the registration the form was about, else the queue. */
function backLink(base: string, path: string): { href: string; label: string } {
  const match = /^\/organizations\/[^/]+\/registrations\/[^/]+/.exec(path);
  return match
    ? { href: `${base}${match[0]}`, label: 'Back to the registration' }
    : { href: `${base}/`, label: 'Back to the queue' };
}

function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

export function createConsoleRouter(deps: ConsoleDeps): Router {
  const now = () => deps.clock().getTime();
  const redirect = new URL(deps.oidc.redirectUri);
  const sessions = createSessionStore({ secure: redirect.protocol === 'https:', now });
  const router = Router();

  router.use(securityHeaders);
  router.get('/console.css', (_req, res) => {
    res.type('text/css').set('Cache-Control', 'private, max-age=300').send(CONSOLE_CSS);
  });
  router.use((req, res, next) => {
    res.locals.consoleSession = sessions.read(req);
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
  router.use(
    createSignInRoutes({
      sessions,
      client: createOidcClient(deps.oidc),
      redirectUri: deps.oidc.redirectUri,
      logger: deps.logger,
      now,
      sessionTtlMs: (deps.sessionTtlS ?? DEFAULT_SESSION_TTL_S) * 1000,
    }),
  );
  router.get('/signed-out', (req, res) => {
    res.send(
      messagePage(pageContext(req, res), 'Signed out', 'You have signed out of the review console.', {
        href: `${req.baseUrl}/login`,
        label: 'Sign in',
      }),
    );
  });
  router.use(requireReviewer);
  router.post('/{*rest}', requireCsrf(redirect.origin));
  router.post('/logout', (req, res) => {
    sessions.end(req, res);
    res.redirect(303, `${req.baseUrl}/signed-out`);
  });
  router.use(createReviewRoutes(deps));
  router.use(createAccessRoutes(deps));
  router.use((req, res) => {
    res.status(404).send(
      messagePage(pageContext(req, res), 'Not found', 'There is no such page.', {
        href: `${req.baseUrl}/`,
        label: 'Back to the queue',
      }),
    );
  });

  const renderError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    const known = isAppError(error);
    // body-parser and the router raise http-errors for bad requests (too large, too many fields, bad encoding).
    const client = clientErrorStatus(error);
    if (!known && client === undefined)
      deps.logger.error({ err: error, requestId: req.requestId }, 'console request failed');
    const status = known ? error.status : (client ?? 500);
    const message =
      known && (status < 500 || status === 503)
        ? error.message
        : client !== undefined
          ? 'The request could not be read.'
          : 'Something went wrong; the error was logged.';
    if (known)
      for (const [name, value] of Object.entries(error.headers))
        if (name.toLowerCase() !== 'www-authenticate') res.set(name, value);
    const title =
      status === 403
        ? 'Not allowed'
        : status === 404
          ? 'Not found'
          : status === 401
            ? 'Signed out'
            : status === 503
              ? 'Unavailable'
              : 'Could not do that';
    const link =
      status === 401 || status === 503
        ? { href: `${req.baseUrl}/login`, label: 'Sign in' }
        : backLink(req.baseUrl, req.path);
    res.status(status).send(messagePage(pageContext(req, res), title, message, link));
  };
  router.use(renderError);
  return router;
}
