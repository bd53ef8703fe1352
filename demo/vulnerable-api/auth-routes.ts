/**
 * `POST /api/register` and `POST /api/login`. Vulnerable twin: registration copies every body property onto the new
 * user (mass assignment: `isAdmin`, `role`) and checks the email with a backtracking regular expression (ReDoS);
 * login hands the body to the Mongo-style filter (`{"password": {"$ne": null}}` logs in) and tells an unknown user
 * (404) from a wrong password (401). Secure twin: allow-listed string fields, a linear email check with a length
 * cap, salted hashes, one 401 for every failed login.
 */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { findOne } from './mongo-filter.js';
import { hashPassword, passwordMatches, type Store, type User } from './store.js';

// Two adjacent quantifiers over the same characters (quoted pairs, `\\.`, allowed in both): checking a long
// non-address backtracks quadratically, about half a second at 20 000 characters (the planted ReDoS).
const BACKTRACKING_EMAIL = /^(?:[\w.+-]|\\.)+(?:[\w.+-]|\\.)*@[\w-]+(\.[\w-]+)+$/i;
const LINEAR_EMAIL = /^[^\s@]{1,64}@[^\s@.]{1,63}(\.[^\s@.]{1,63})+$/;
const USERNAME = /^[a-z0-9_]{3,32}$/;

const publicUser = (user: User) => ({
  id: user.id,
  username: user.username,
  email: user.email,
  displayName: user.displayName,
  role: user.role,
  isAdmin: user.isAdmin,
});
const issueToken = (store: Store, user: User): string => {
  const token = `demo_${randomBytes(18).toString('base64url')}`;
  store.tokens.set(token, user.id);
  return token;
};

export function authRoutes(store: Store, secure: boolean): Router {
  const router = Router();

  router.post('/api/register', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const { username, email, password } = body;
    if (secure) {
      if (typeof username !== 'string' || !USERNAME.test(username))
        return void res.status(400).json({ error: 'username: 3-32 of a-z, 0-9, _' });
      if (typeof email !== 'string' || email.length > 254 || !LINEAR_EMAIL.test(email))
        return void res.status(400).json({ error: 'email: not an address' });
      if (typeof password !== 'string' || password.length < 10)
        return void res.status(400).json({ error: 'password: at least 10 characters' });
    } else {
      if (typeof username !== 'string' || !username || typeof password !== 'string' || !password)
        return void res.status(400).json({ error: 'username and password are required' });
      if (!BACKTRACKING_EMAIL.test(String(email))) return void res.status(400).json({ error: 'email: not an address' });
    }
    if (store.users.some((u) => u.username === username)) return void res.status(409).json({ error: 'username taken' });
    const base: User = {
      id: store.nextId('u'),
      username: String(username),
      email: String(email),
      displayName: String(username),
      role: 'user',
      isAdmin: false,
      apiKey: `ak_${randomBytes(16).toString('hex')}`,
    };
    const user: User = secure
      ? { ...base, passwordHash: hashPassword(String(password)) }
      : { ...base, ...body, id: base.id, apiKey: base.apiKey };
    store.users.push(user);
    res.status(201).json(publicUser(user));
  });

  router.post('/api/login', (req, res) => {
    const { username, password } = (req.body ?? {}) as Record<string, unknown>;
    if (secure) {
      if (typeof username !== 'string' || typeof password !== 'string')
        return void res.status(400).json({ error: 'username and password must be strings' });
      const user = store.users.find((u) => u.username === username);
      // Hash even for an unknown user, so time does not tell the two apart either.
      const ok = passwordMatches(password, user?.passwordHash ?? hashPassword('not-a-user'));
      if (!user || !ok) return void res.status(401).json({ error: 'invalid username or password' });
      return void res.json({ token: issueToken(store, user), tokenType: 'Bearer' });
    }
    const known = findOne(store.users, { username });
    if (!known) return void res.status(404).json({ error: `no user named ${String(username)}` });
    const user = findOne(store.users, { username, password });
    if (!user) return void res.status(401).json({ error: 'wrong password' });
    res.json({ token: issueToken(store, user), tokenType: 'Bearer' });
  });

  return router;
}
