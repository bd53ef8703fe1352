/**
 * CSRF protection for every state-changing form (synchronizer token, OWASP): the session's token must come back
 * in the `_csrf` field, compared in constant time; a cross-origin `Origin` is refused before that.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { ConsoleSession } from './console-session.js';

export function csrfProblem(
  req: Request,
  session: ConsoleSession | undefined,
  expectedOrigin: string,
): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== expectedOrigin) return 'The form was sent from another site.';
  const sent = (req.body as Record<string, unknown> | undefined)?._csrf;
  if (!session || typeof sent !== 'string') return 'The form has expired; reload the page and try again.';
  const a = Buffer.from(sent);
  const b = Buffer.from(session.csrf);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return 'The form has expired; reload the page and try again.';
  return undefined;
}
