/** Bearer-token authentication for the demo API: the token names a seeded or registered user, else 401. */
import type { NextFunction, Request, Response } from 'express';
import type { Store, User } from './store.js';

export interface Authenticated {
  user: User;
}

export function authenticate(store: Store) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const userId = token ? store.tokens.get(token) : undefined;
    const user = userId ? store.users.find((u) => u.id === userId) : undefined;
    if (!user) return void res.status(401).json({ error: 'missing or invalid bearer token' });
    res.locals.user = user;
    next();
  };
}

export const callerOf = (res: Response): User => (res.locals as Authenticated).user;
