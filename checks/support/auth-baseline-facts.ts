/**
 * The facts `auth.baseline` publishes and the verdict rule every credential check shares: an attack is "accepted"
 * when its response looks like the supplied credential's response and unlike the no-credential / garbage-credential
 * responses — compared with what this endpoint actually answered, not only with a fixed set of statuses.
 */
import { createHash } from 'node:crypto';
import type { CheckContext, ProbeResponse } from '../../scanner/api.js';
import { answerStatus } from './graphql-answer.js';

const AUTH_BASELINE_ID = 'auth.baseline';

/** Statuses that mean "authentication failed" whatever the endpoint (RFC 9110 §15.5.2, §15.5.4). */
const AUTH_REJECTION = new Set([401, 403]);

/** Statuses of the three baseline requests (only statuses: facts become the report's `data`). */
export interface BaselineStatuses {
  credential: number;
  noCredential: number;
  garbage: number;
}

/**
 * A short digest of an answer's status and body with numbers and long hex/base64 runs blanked, so a timestamp or a
 * request id does not make two identical answers differ (facts are report data: no bodies, only digests).
 */
export function answerDigest(response: Pick<ProbeResponse, 'status' | 'body'>): string {
  const body = response.body.replace(/[A-Za-z0-9+/_-]{24,}/g, '~').replace(/\d+/g, '0');
  return createHash('sha256').update(`${response.status}\n${body}`).digest('hex').slice(0, 16);
}

const PERMISSION_WORDS =
  /insufficient[_ ]scope|forbidden|permission|not (?:allowed|permitted)|admin|role|scope|privilege|access denied/i;
const REJECTION_WORDS =
  /invalid|expired|malformed|signature|unauthenticated|no (?:authorization|token|credential)|missing/i;

/** A 401/403 answer that says "who you are is known, what you asked is not allowed", not "who are you?". */
export function saysNotPermitted(response: Pick<ProbeResponse, 'body' | 'headers'>): boolean {
  const text = `${response.headers['www-authenticate'] ?? ''}\n${response.body.slice(0, 2000)}`;
  return PERMISSION_WORDS.test(text) && !REJECTION_WORDS.test(text);
}

export interface BaselineDigests {
  credential: string;
  noCredential: string;
  garbage: string;
}

export interface BaselineFacts {
  /** The request without any credential was rejected: the endpoint needs one. */
  requiresCredential: boolean;
  /** The supplied credential got a non-401/403 answer. */
  credentialAccepted: boolean;
  /** A random, well-formed-looking but invalid credential was rejected. */
  garbageRejected: boolean;
  /**
   * The supplied credential is valid but not permitted here (docs/architecture.md §2.6 "permission is not authentication"): 403, or a
   * 401 whose answer differs from the one no credential and garbage both get. Credential checks still run, comparing
   * against that answer.
   */
  notPermitted: boolean;
  /** The operation answers the same (status and body) without any credential: public, no authentication finding above Info. */
  answersSameWithout: boolean;
  statuses: BaselineStatuses;
  digests?: BaselineDigests;
  /** GraphQL operations: the field, so attack answers are judged by the status they stand for (graphql-answer.ts). */
  graphql?: { field?: string };
}

const statusClass = (status: number): number => Math.floor(status / 100);

/** True when `rejected` tells a client it is not authenticated, compared with the credential's answer `accepted`. */
export function looksRejected(rejected: number, accepted: number): boolean {
  return AUTH_REJECTION.has(rejected) || statusClass(rejected) !== statusClass(accepted);
}

/** Computes the facts from the statuses (and, when known, the answer digests) of the three baseline requests. */
export function baselineFacts(
  statuses: BaselineStatuses,
  digests?: BaselineDigests,
  deniedWording = false,
): BaselineFacts {
  const credentialAccepted = !AUTH_REJECTION.has(statuses.credential);
  // The credential got an answer unlike both invalid requests': it was recognised, then refused.
  const recognised = digests
    ? digests.credential !== digests.noCredential && digests.credential !== digests.garbage
    : false;
  const notPermitted =
    !credentialAccepted &&
    (statuses.credential === 403
      ? statuses.noCredential !== 403 || recognised
      : // A 401 is ambiguous (a bad signature is a 401 too): only an answer that says "not permitted" counts.
        recognised && deniedWording && AUTH_REJECTION.has(statuses.noCredential));
  return {
    requiresCredential: looksRejected(statuses.noCredential, statuses.credential),
    credentialAccepted,
    garbageRejected:
      looksRejected(statuses.garbage, statuses.credential) ||
      (notPermitted && digests?.garbage !== digests?.credential),
    notPermitted,
    answersSameWithout: digests
      ? statuses.credential === statuses.noCredential && digests.credential === digests.noCredential
      : false,
    statuses,
    ...(digests ? { digests } : {}),
  };
}

/**
 * The shared verdict: an attack credential was accepted when its status is not 401/403, is in the same class as the
 * supplied credential's status (2xx like 2xx…), and is not the status the rejected baseline requests got (unless that
 * is also the accepted status).
 */
export function attackAccepted(response: ProbeResponse, facts: BaselineFacts): boolean {
  const status = answerStatus(response, facts);
  const accepted = facts.statuses.credential;
  if (facts.notPermitted && facts.digests) {
    // Valid but not permitted: a forged token is accepted when it gets the credential's own answer, not the rejection.
    const digest = answerDigest(response);
    return (
      digest === facts.digests.credential && digest !== facts.digests.noCredential && digest !== facts.digests.garbage
    );
  }
  if (!facts.credentialAccepted || AUTH_REJECTION.has(status) || statusClass(status) !== statusClass(accepted))
    return false;
  const rejected = new Set<number>();
  if (facts.requiresCredential) rejected.add(facts.statuses.noCredential);
  if (facts.garbageRejected) rejected.add(facts.statuses.garbage);
  return status === accepted || !rejected.has(status);
}

/** Reads the facts of `auth.baseline` (the caller must declare it in `dependsOn`). */
export function readBaseline(ctx: CheckContext): BaselineFacts {
  const facts = ctx.fact<BaselineFacts>(AUTH_BASELINE_ID, 'facts');
  const refused = ctx.fact<string>(AUTH_BASELINE_ID, 'refused');
  if (!facts && refused) ctx.skip(refused);
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
  if (!facts.credentialAccepted && !facts.notPermitted) {
    ctx.skip(
      `the supplied credential is rejected (${facts.statuses.credential}): scan with a valid one so forged credentials can be told apart`,
      { incomplete: true },
    );
  }
  return facts;
}
