/**
 * The facts `auth.baseline` publishes and the verdict rule every credential check shares: an attack is "accepted"
 * when its response looks like the supplied credential's response and unlike the no-credential / garbage-credential
 * responses — compared with what this endpoint actually answered, not only with a fixed set of statuses.
 */
import type { CheckContext, ProbeResponse } from '../../scanner/api.js';

export const AUTH_BASELINE_ID = 'auth.baseline';

/** Statuses that mean "authentication failed" whatever the endpoint (RFC 9110 §15.5.2, §15.5.4). */
const AUTH_REJECTION = new Set([401, 403]);

/** Statuses of the three baseline requests (only statuses: facts become the report's `data`). */
export interface BaselineStatuses {
  credential: number;
  noCredential: number;
  garbage: number;
}

export interface BaselineFacts {
  /** The request without any credential was rejected: the endpoint needs one. */
  requiresCredential: boolean;
  /** The supplied credential got a non-401/403 answer. */
  credentialAccepted: boolean;
  /** A random, well-formed-looking but invalid credential was rejected. */
  garbageRejected: boolean;
  statuses: BaselineStatuses;
}

const statusClass = (status: number): number => Math.floor(status / 100);

/** True when `rejected` tells a client it is not authenticated, compared with the credential's answer `accepted`. */
export function looksRejected(rejected: number, accepted: number): boolean {
  return AUTH_REJECTION.has(rejected) || statusClass(rejected) !== statusClass(accepted);
}

/** Computes the facts from the statuses of the three baseline requests. */
export function baselineFacts(statuses: BaselineStatuses): BaselineFacts {
  return {
    requiresCredential: looksRejected(statuses.noCredential, statuses.credential),
    credentialAccepted: !AUTH_REJECTION.has(statuses.credential),
    garbageRejected: looksRejected(statuses.garbage, statuses.credential),
    statuses,
  };
}

/**
 * The shared verdict: an attack credential was accepted when its status is not 401/403, is in the same class as the
 * supplied credential's status (2xx like 2xx…), and is not the status the rejected baseline requests got (unless that
 * is also the accepted status).
 */
export function attackAccepted(response: ProbeResponse, facts: BaselineFacts): boolean {
  const status = response.status;
  const accepted = facts.statuses.credential;
  if (!facts.credentialAccepted || AUTH_REJECTION.has(status) || statusClass(status) !== statusClass(accepted)) return false;
  const rejected = new Set<number>();
  if (facts.requiresCredential) rejected.add(facts.statuses.noCredential);
  if (facts.garbageRejected) rejected.add(facts.statuses.garbage);
  return status === accepted || !rejected.has(status);
}

/** Reads the facts of `auth.baseline` (the caller must declare it in `dependsOn`). */
export function readBaseline(ctx: CheckContext): BaselineFacts {
  const facts = ctx.fact<BaselineFacts>(AUTH_BASELINE_ID, 'facts');
  if (!facts) ctx.skip(`${AUTH_BASELINE_ID} published no facts for this operation`);
  return facts;
}

/**
 * Reads the facts and skips unless attacks can be judged: the endpoint must reject requests without a credential
 * (else every forged token "works" and proves nothing) and must accept the supplied one (else nothing is accepted).
 */
export function requireProtectedEndpoint(ctx: CheckContext): BaselineFacts {
  const facts = readBaseline(ctx);
  if (!facts.requiresCredential) {
    ctx.skip(`endpoint does not require a credential (a request without one got ${facts.statuses.noCredential})`);
  }
  if (!facts.credentialAccepted) {
    ctx.skip(`the supplied credential is rejected (${facts.statuses.credential}): scan with a valid one so forged credentials can be told apart`);
  }
  return facts;
}
