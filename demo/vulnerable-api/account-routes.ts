/**
 * The signed-in user's data. Vulnerable twin: `GET /api/users` returns whole records (passwords, API keys),
 * `GET /api/account` forgets its filter and lists every account, `PATCH /api/account` copies every body property
 * (mass assignment) after checking the display name with a backtracking regular expression (ReDoS on an update of
 * the caller's own record), `GET /api/users/{userId}/orders` lists anyone's orders (BOLA). Secure twin: public fields
 * only, the caller's own account, allow-listed updates with a length cap, orders of the caller only.
 */
import { Router } from 'express';
import { authenticate, callerOf } from './authenticate.js';
import type { Store, User } from './store.js';

// Two adjacent quantifiers over the same characters: a long name ending in a refused character backtracks
// quadratically, about 0.7 s at 20 000 characters (the planted ReDoS; the 24 kB body limit bounds it).
const BACKTRACKING_NAME = /^(?:[A-Za-z]|\\.)+(?:[A-Za-z]|\\.)*(?: (?:[A-Za-z]|\\.)+)*$/;

const account = (user: User) => ({
  id: user.id,
  username: user.username,
  email: user.email,
  displayName: user.displayName,
  role: user.role,
  isAdmin: user.isAdmin,
});

export function accountRoutes(store: Store, secure: boolean): Router {
  const router = Router();
  const auth = authenticate(store);

  router.get('/api/users', auth, (_req, res) => {
    res.json(secure ? store.users.map((u) => ({ id: u.id, username: u.username })) : store.users);
  });

  router.get('/api/account', auth, (_req, res) => {
    res.json(secure ? account(callerOf(res)) : store.users.map(account));
  });

  router.patch('/api/account', auth, (req, res) => {
    const user = callerOf(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (secure) {
      for (const key of ['email', 'displayName'] as const) {
        if (body[key] === undefined) continue;
        if (typeof body[key] !== 'string' || body[key].length > 254)
          return void res.status(400).json({ error: `${key}: a string` });
        user[key] = body[key];
      }
    } else {
      if (typeof body.displayName === 'string' && !BACKTRACKING_NAME.test(body.displayName))
        return void res.status(400).json({ error: 'displayName: letters and spaces' });
      Object.assign(user, body, { id: user.id });
    }
    res.json(account(user));
  });

  router.get('/api/users/:userId/orders', auth, (req, res) => {
    const caller = callerOf(res);
    if (secure && req.params.userId !== caller.id) return void res.status(404).json({ error: 'no such user' });
    if (!store.users.some((u) => u.id === req.params.userId))
      return void res.status(404).json({ error: 'no such user' });
    res.json(store.orders.filter((o) => o.userId === req.params.userId));
  });

  return router;
}
