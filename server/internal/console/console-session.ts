/**
 * Console sessions: an opaque random id in a cookie (`HttpOnly; SameSite=Lax`, `Secure` on https), the state in
 * process memory. A session carries the sign-in transaction (state, nonce, PKCE verifier), then the reviewer,
 * its CSRF token and a one-shot flash message. The id is replaced at sign-in (no session fixation).
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';

export interface SignInTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

export interface Reviewer {
  sub: string;
  name?: string;
  scopes: string[];
}

export interface ConsoleSession {
  id: string;
  csrf: string;
  expiresAt: number;
  signIn?: SignInTransaction;
  reviewer?: Reviewer;
  flash?: string;
}

const SESSION_COOKIE = 'gatehouse_console';
/** A sign-in must come back from the IdP within this time. */
const SIGN_IN_TTL_MS = 10 * 60_000;

const random = () => randomBytes(32).toString('base64url');

export interface SessionStore {
  /** The request's live session, if its cookie names one. */
  read(req: Request): ConsoleSession | undefined;
  /** Starts a new session (dropping the request's old one) and sets its cookie. */
  start(req: Request, res: Response, init: Pick<ConsoleSession, 'signIn' | 'reviewer'>, ttlMs?: number): ConsoleSession;
  end(req: Request, res: Response): void;
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createSessionStore(options: { secure: boolean; now: () => number }): SessionStore {
  const sessions = new Map<string, ConsoleSession>();

  function sweep(): void {
    const now = options.now();
    for (const [id, session] of sessions) if (session.expiresAt <= now) sessions.delete(id);
  }
  function cookie(req: Request, value: string, maxAgeS: number): string {
    const path = req.baseUrl || '/';
    return `${SESSION_COOKIE}=${value}; Path=${path}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`;
  }
  function read(req: Request): ConsoleSession | undefined {
    const id = cookieValue(req, SESSION_COOKIE);
    const session = id === undefined ? undefined : sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= options.now()) {
      sessions.delete(session.id);
      return undefined;
    }
    return session;
  }

  return {
    read,
    start(req, res, init, ttlMs = SIGN_IN_TTL_MS) {
      sweep();
      const old = read(req);
      if (old) sessions.delete(old.id);
      const session: ConsoleSession = { id: random(), csrf: random(), expiresAt: options.now() + ttlMs, ...init };
      sessions.set(session.id, session);
      res.append('Set-Cookie', cookie(req, session.id, Math.floor(ttlMs / 1000)));
      return session;
    },
    end(req, res) {
      const session = read(req);
      if (session) sessions.delete(session.id);
      res.append('Set-Cookie', cookie(req, '', 0));
    },
  };
}
