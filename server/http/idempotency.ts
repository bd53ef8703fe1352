/**
 * `Idempotency-Key` on create POSTs (draft-ietf-httpapi-idempotency-key-header-07, docs/architecture.md §1.5): keys are scoped
 * to organization + subject and kept 24 h; a retry with the same request replays the stored success, a different
 * request is 422 `idempotency_key_reused`, one still running is 409 `conflict`. Only successes are kept. A request
 * refused (4xx) releases its key, so the client may fix it and retry with the same key. A failure whose outcome is
 * unknown (5xx: a timeout or lost connection after the write was sent may still have created the resource) keeps
 * the claim — but the instance that answered it knows nothing runs under it any more, so a retry reaching that
 * instance takes it over at once; elsewhere it waits for the lease. The retry finds the record the key created,
 * which carries the key under a unique index, and replays the 201 instead of creating a second one — even if the
 * first write lands only now, one of the two inserts fails on that index.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { ApiDeps } from '../deps.js';
import { apiError } from '../errors.js';
import type { IdempotencyScope, StoredResponse } from '../components/idempotency/idempotency.repository.js';
import { canonicalJson } from './canonical-json.js';

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a claimed key blocks retries before a crashed request's claim is taken over. */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
/** Response headers replayed with the stored body. */
const REPLAYED_HEADERS = ['location', 'etag'];

/** The key from the header: a Structured Field String (quoted) or a bare token; 8–255 visible characters. */
export function parseIdempotencyKey(header: string | string[]): string {
  const value = Array.isArray(header) ? header.join(', ') : header;
  const unquoted = /^"(.*)"$/.exec(value.trim())?.[1] ?? value.trim();
  // Node joins repeated headers with ", ": a comma means more than one key was sent.
  if (!/^[\x21-\x7e]{8,255}$/.test(unquoted) || /[",\\]/.test(unquoted)) {
    throw apiError(
      'invalid_request',
      'Idempotency-Key must be sent once, as 8–255 visible characters (a UUID is recommended).',
    );
  }
  return unquoted;
}

function replay(res: Response, response: StoredResponse): void {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(response.status).json(response.body);
}

/** Holders remembered as over, at most (the oldest are forgotten first; their claims then wait for the lease). */
const MAX_ENDED_HOLDERS = 10_000;

/** Route middleware for create POSTs; runs after authentication and organization resolution. */
export function idempotentCreate(deps: Pick<ApiDeps, 'store' | 'clock' | 'logger'>): RequestHandler {
  // This instance's claims answered with a 5xx: over, whatever their lease says (insertion order = age).
  const instance = randomUUID();
  const ended = new Set<string>();
  const markEnded = (holder: string) => {
    if (ended.size >= MAX_ENDED_HOLDERS) ended.delete(ended.values().next().value as string);
    ended.add(holder);
  };
  const abandoned = (holder: string) => ended.has(holder);

  return async (req, res, next) => {
    const header = req.headers['idempotency-key'];
    if (header === undefined) return next();
    const organization = req.organization;
    const principal = req.principal;
    if (!organization || !principal)
      throw new Error('idempotentCreate needs an authenticated, organization-scoped request');
    const scope: IdempotencyScope = {
      organizationId: organization.id,
      subject: principal.sub,
      key: parseIdempotencyKey(header),
    };
    const { organizationId: _org, ...params } = req.params as Record<string, string>;
    const fingerprint = createHash('sha256')
      .update(
        canonicalJson({
          method: req.method,
          route: (req.route as { path?: string } | undefined)?.path ?? req.path,
          params,
          body: (req.body as unknown) ?? null,
        }),
      )
      .digest('base64url');

    const holder = `${instance}:${randomUUID()}`;
    let outcome;
    try {
      outcome = await deps.store.idempotency.begin({
        ...scope,
        holder,
        abandoned,
        fingerprint,
        now: deps.clock(),
        leaseMs: IDEMPOTENCY_LEASE_MS,
        ttlMs: IDEMPOTENCY_TTL_MS,
      });
    } catch (error) {
      // The claim's own write may have landed before the database failed (a timeout, a lost connection): nothing
      // runs under it, so a retry here takes it over instead of waiting out the lease.
      markEnded(holder);
      throw error;
    }
    if (outcome.outcome === 'mismatch') {
      throw apiError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request in the last 24 hours.',
      );
    }
    if (outcome.outcome === 'in_flight') {
      throw apiError('conflict', 'A request with this Idempotency-Key is still being processed.', {
        headers: { 'Retry-After': '1' },
      });
    }
    if (outcome.outcome === 'completed') return replay(res, outcome.response);
    // The create stores the key on the record it makes (components read it from here).
    res.locals.idempotencyKey = scope.key;

    let settled = false;
    const send = res.json.bind(res);
    const release = (status: number) => {
      if (settled) return Promise.resolve();
      settled = true;
      // Unknown outcome: the claim stays (a retry elsewhere waits for the lease); here it is known to be over.
      if (status >= 500) {
        markEnded(holder);
        return Promise.resolve();
      }
      return deps.store.idempotency.release({ ...scope, claim: outcome.claim });
    };
    // Store the success before it is sent: a client that saw the response and retries must get the replay.
    res.json = (body: unknown) => {
      const status = res.statusCode;
      const finish =
        status >= 200 && status < 300 && !settled
          ? ((settled = true),
            deps.store.idempotency.complete({
              ...scope,
              claim: outcome.claim,
              response: {
                status,
                body,
                headers: Object.fromEntries(
                  REPLAYED_HEADERS.filter((h) => res.hasHeader(h)).map((h) => [h, String(res.getHeader(h))]),
                ),
              },
            }))
          : release(status);
      finish
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, requestId: req.requestId }, 'idempotency record not updated'),
        )
        .finally(() => send(body));
      return res;
    };
    // No release when the client disconnects: the handler may still create the resource and record it. A request
    // that never answers keeps the key only until the lease ends.
    next();
  };
}
