/** The per-request view of the console: the session, the reviewer's roles, and guards for pages and forms. */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { consoleError } from './console-errors.js';
import type { ConsoleSession, Reviewer } from './console-session.js';
import { csrfProblem } from './csrf.js';
import { ADMIN_SCOPE, REVIEW_SCOPE } from './oidc-client.js';
import type { PageContext } from './views/layout.js';

type Role = 'reviewer' | 'admin';

export function rolesOf(reviewer: Reviewer): Role[] {
  const roles: Role[] = [];
  if (reviewer.scopes.includes(REVIEW_SCOPE) || reviewer.scopes.includes(ADMIN_SCOPE)) roles.push('reviewer');
  if (reviewer.scopes.includes(ADMIN_SCOPE)) roles.push('admin');
  return roles;
}

export function sessionOf(res: Response): ConsoleSession | undefined {
  return res.locals.consoleSession as ConsoleSession | undefined;
}

/** The signed-in reviewer; only `requireReviewer` routes call it. */
export function reviewerOf(res: Response): Reviewer {
  const reviewer = sessionOf(res)?.reviewer;
  if (!reviewer) throw new Error('reviewerOf used outside requireReviewer');
  return reviewer;
}

/** The page frame's data; reading it consumes the flash message. */
export function pageContext(req: Request, res: Response): PageContext {
  const session = sessionOf(res);
  const flash = session?.flash;
  if (session) delete session.flash;
  const reviewer = session?.reviewer;
  return {
    base: req.baseUrl,
    csrf: session?.csrf ?? '',
    ...(reviewer && {
      user: {
        sub: reviewer.sub,
        ...(reviewer.name !== undefined && { name: reviewer.name }),
        roles: rolesOf(reviewer),
      },
    }),
    ...(flash !== undefined && { flash }),
  };
}

/** Pages need a signed-in reviewer: a GET without one goes to sign-in and comes back; anything else is 401. */
export const requireReviewer: RequestHandler = (req, res, next) => {
  const reviewer = sessionOf(res)?.reviewer;
  if (reviewer) {
    // Sessions are only opened for reviewers; this guards against a session whose scopes changed shape.
    if (!rolesOf(reviewer).includes('reviewer'))
      throw consoleError('not_a_reviewer', 'Your account may not use the review console.');
    next();
    return;
  }
  if (req.method === 'GET') {
    res.redirect(303, `${req.baseUrl}/login?returnTo=${encodeURIComponent(req.originalUrl)}`);
    return;
  }
  throw consoleError('not_signed_in', 'Your session has ended; sign in again.');
};

export const requireAdmin: RequestHandler = (_req, res, next) => {
  if (!rolesOf(reviewerOf(res)).includes('admin')) {
    throw consoleError('admin_only', 'Changing API access needs the gatehouse:admin scope.');
  }
  next();
};

/** Every POST carries the session's CSRF token (and no foreign Origin). */
export function requireCsrf(expectedOrigin: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const problem = csrfProblem(req, sessionOf(res), expectedOrigin);
    if (problem) throw consoleError('csrf_failed', problem);
    next();
  };
}

/** A string field of an urlencoded form ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

export function queryParam(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
