/**
 * What the testing API changes on one issuer (docs/architecture.md §3.4): the clock offset, queued faults per endpoint, queued
 * next logins, and the request log. Reset empties all of it.
 */
import type { ServerResponse } from 'node:http';
import type { AccountDirectory } from '../accounts.js';
import { ROUTES } from '../provider.js';
import type { RequestRecord } from '../request-log.js';
import type { TestClock } from './clock.js';

/** Endpoints a fault can target, and the paths (below the issuer) that belong to each. */
export const FAULT_ENDPOINTS = {
  token: (p: string) => p === ROUTES.token,
  userinfo: (p: string) => p === ROUTES.userinfo,
  jwks: (p: string) => p === ROUTES.jwks,
  discovery: (p: string) => p === '/.well-known/openid-configuration',
  introspection: (p: string) => p === ROUTES.introspection,
  revocation: (p: string) => p === ROUTES.revocation,
  register: (p: string) => p === ROUTES.registration || p.startsWith(`${ROUTES.registration}/`),
  authorization: (p: string) => p === ROUTES.authorization,
} as const;

export type FaultEndpoint = keyof typeof FAULT_ENDPOINTS;

export interface Fault {
  endpoint: FaultEndpoint;
  /** HTTP status (default 400 with an error, 401 for invalid_client, 503 without one). */
  status?: number;
  /** OAuth error code answered (e.g. invalid_grant, temporarily_unavailable). */
  error?: string;
  errorDescription?: string;
  /** Wait this long first; alone, the call then proceeds normally. */
  delayMs?: number;
  /** How many calls it applies to (default 1). */
  times?: number;
}

export interface NextLogin {
  sub: string;
  claims?: Record<string, unknown>;
  times?: number;
}

export interface TestingState {
  clock: TestClock;
  faults: (Fault & { remaining: number })[];
  logins: (NextLogin & { remaining: number })[];
  requests: RequestRecord[];
  /** The next queued login's sub (its claims applied), consuming one of its times. */
  takeLogin(accounts: AccountDirectory): string | undefined;
  /** The first pending fault for a path below the issuer, consuming one of its times. */
  faultFor(path: string): Fault | undefined;
  /** Answers with the fault (after its delay), or calls `proceed` when it is a delay only. */
  apply(fault: Fault, res: ServerResponse, proceed: () => void): void;
  clear(): void;
}

export function createTestingState(): TestingState {
  const state: TestingState = {
    clock: { offsetSeconds: 0 },
    faults: [],
    logins: [],
    requests: [],
    takeLogin(accounts) {
      const next = state.logins[0];
      if (!next) return undefined;
      if (--next.remaining <= 0) state.logins.shift();
      accounts.override(next.sub, next.claims ?? {});
      return next.sub;
    },
    faultFor(path) {
      const index = state.faults.findIndex((f) => FAULT_ENDPOINTS[f.endpoint](path));
      if (index < 0) return undefined;
      const fault = state.faults[index];
      if (--fault.remaining <= 0) state.faults.splice(index, 1);
      return fault;
    },
    apply(fault, res, proceed) {
      const answer = () => {
        if (!fault.error && !fault.status) return proceed();
        const error = fault.error ?? (fault.status! >= 500 ? 'server_error' : 'invalid_request');
        const status =
          fault.status ?? (error === 'invalid_client' ? 401 : error === 'temporarily_unavailable' ? 503 : 400);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        res.end(
          JSON.stringify({
            error,
            error_description: fault.errorDescription ?? `fault injected by the testing API (${fault.endpoint})`,
          }),
        );
      };
      if (fault.delayMs) setTimeout(answer, fault.delayMs);
      else answer();
    },
    clear() {
      state.clock.offsetSeconds = 0;
      state.faults.length = 0;
      state.logins.length = 0;
      state.requests.length = 0;
    },
  };
  return state;
}
