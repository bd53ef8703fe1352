/**
 * A privilege chain: a role update and two staff-only operations it opens.
 * - `PUT /api/user-roles {"username", "role"}`: gives a user a role. Vulnerable twin: any signed-in user may call it,
 *   for anyone, themselves included (a customer makes itself `admin`). Secure twin: administrators only.
 * - `POST /api/staff/imports {"url"}`: staff import a product feed from a URL. Both twins admit administrators only;
 *   the vulnerable twin then fetches whatever URL it is given (SSRF, loopback only so the demo reaches nothing beyond
 *   this machine), the secure twin only queues a public https URL and fetches nothing.
 * - `GET /api/staff/traceroute?host=`: staff network diagnostics. Both twins admit administrators only; the
 *   vulnerable twin pastes the host into a (SIMULATED: mini-shell.ts) shell command line, the secure twin takes a host
 *   name only.
 */
import { isIP } from 'node:net';
import { Router, type Response } from 'express';
import { authenticate, callerOf } from './authenticate.js';
import { runShell } from './mini-shell.js';
import type { Store } from './store.js';

const ROLES = new Set(['user', 'admin']);
const HOST = /^[A-Za-z0-9.-]{1,253}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const refuse = (res: Response, status: number, error: string): void => void res.status(status).json({ error });
const isStaff = (res: Response): boolean => callerOf(res).role === 'admin';

function parseUrl(value: unknown): URL | undefined {
  try {
    return typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
}

export function staffRoutes(store: Store, secure: boolean): Router {
  const router = Router();
  const auth = authenticate(store);

  router.put('/api/user-roles', auth, (req, res) => {
    if (secure && !isStaff(res)) return refuse(res, 403, 'administrators only');
    const { username, role } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof role !== 'string' || !ROLES.has(role)) return refuse(res, 400, 'role: user or admin');
    const user = store.users.find((u) => u.username === username);
    if (!user) return refuse(res, 404, 'no such user');
    user.role = role as 'user' | 'admin';
    user.isAdmin = role === 'admin';
    res.json({ username: user.username, role: user.role });
  });

  router.post('/api/staff/imports', auth, async (req, res) => {
    if (!isStaff(res)) return refuse(res, 403, 'staff only');
    const target = parseUrl((req.body as Record<string, unknown> | undefined)?.url);
    if (!target || !['http:', 'https:'].includes(target.protocol)) return refuse(res, 400, 'url: an http(s) URL');
    if (secure) {
      // No IP literals at all (private, loopback, link-local alike) and https only: a public host name.
      if (
        target.protocol !== 'https:' ||
        LOOPBACK.has(target.hostname) ||
        isIP(target.hostname.replace(/^\[|\]$/g, '')) !== 0
      )
        return refuse(res, 400, 'url: a public https URL');
      return void res.status(202).json({ url: target.href, status: 'queued' });
    }
    // The demo's own safety line, not a fix: it never sends a request off this machine (others are only queued).
    if (!LOOPBACK.has(target.hostname)) return void res.status(202).json({ url: target.href, status: 'queued' });
    const answer = await fetch(target, { signal: AbortSignal.timeout(2000) });
    res.json({ url: target.href, status: answer.status, preview: (await answer.text()).slice(0, 200) });
  });

  router.get('/api/staff/traceroute', auth, (req, res) => {
    if (!isStaff(res)) return refuse(res, 403, 'staff only');
    const host = typeof req.query.host === 'string' ? req.query.host : '';
    if (secure && !HOST.test(host)) return refuse(res, 400, 'host: a host name');
    res.json({ host, output: runShell(`ping -c 3 ${host}`).output });
  });

  return router;
}
