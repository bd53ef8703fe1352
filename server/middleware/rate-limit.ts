/**
 * Per-plan rate limits per subject and organization (docs/architecture.md §1.8), with the header fields of
 * draft-ietf-httpapi-ratelimit-headers (docs/architecture.md §R.2) on every response:
 *   RateLimit-Policy: "pro";q=600;w=60      RateLimit: "pro";r=599;t=42
 * and 429 `rate_limited` + `Retry-After` (never earlier than the window's end, plus jitter) when exhausted.
 * Used after organization resolution. Without an organization (GET /organizations) the caller is limited per
 * subject alone at the free-plan rate, under the policy name "subject": the call is cheap and rare, and a
 * subject's plan is unknown before an organization is chosen.
 */
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps.js';
import { apiError } from '../errors.js';
import { planFor } from '../plans.js';
import { missingToken } from './bearer-errors.js';

const WINDOW_MS = 60_000;
const MAX_JITTER_S = 2;

/** Partition keys never carry raw subjects or ids (docs/architecture.md §R.2). */
function partitionKey(sub: string, organizationId: string): string {
  return createHash('sha256').update(`${sub}\u0000${organizationId}`).digest('base64url');
}

export function createRateLimit(deps: ApiDeps): RequestHandler {
  const { config, store } = deps;
  return async (req, res, next) => {
    const principal = req.principal;
    if (!principal) throw missingToken();
    const organization = req.organization;
    const policy = organization ? organization.plan : 'subject';
    const limit = organization ? planFor(organization.plan).rateLimitPerMinute(config) : config.rateLimitFree;
    let outcome: Awaited<ReturnType<typeof store.rateLimits.consume>>;
    try {
      outcome = await store.rateLimits.consume(partitionKey(principal.sub, organization?.id ?? ''), limit, WINDOW_MS);
    } catch (err) {
      throw apiError('unavailable', 'The rate-limit store is unavailable; try again later.', { cause: err });
    }
    const resetS = Math.max(1, Math.ceil(outcome.resetMs / 1000));
    res.setHeader('RateLimit-Policy', `"${policy}";q=${limit};w=${WINDOW_MS / 1000}`);
    res.setHeader('RateLimit', `"${policy}";r=${outcome.remaining};t=${resetS}`);
    if (!outcome.allowed) {
      deps.metrics?.rateLimited(policy);
      const retryAfter = resetS + Math.floor(Math.random() * (MAX_JITTER_S + 1));
      throw apiError('rate_limited', `Rate limit of ${limit} requests a minute exceeded (policy "${policy}").`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    next();
  };
}
