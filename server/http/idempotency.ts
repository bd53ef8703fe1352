/**
 * `Idempotency-Key` on create POSTs (draft-ietf-httpapi-idempotency-key-header-07, DESIGN.md §1.5): keys are scoped
 * to organization + subject and kept 24 h; a retry with the same request replays the stored success, a different
 * request is 422 `idempotency_key_reused`, one still running is 409 `conflict`. Only successes are kept. A request
 * refused (4xx) releases its key, so the client may fix it and retry with the same key. A failure whose outcome is
 * unknown (5xx: a timeout or lost connection after the write was sent may still have created the resource) keeps
 * the claim until its lease ends; the retry after it finds the record the key created, which carries the key,
 * and replays the 201 instead of creating a second one.
 */
import { createHash } from 'node:crypto';
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

/** Route middleware for create POSTs; runs after authentication and organization resolution. */
export function idempotentCreate(deps: Pick<ApiDeps, 'store' | 'clock' | 'logger'>): RequestHandler {
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

    const outcome = await deps.store.idempotency.begin({
      ...scope,
      fingerprint,
      now: deps.clock(),
      leaseMs: IDEMPOTENCY_LEASE_MS,
      ttlMs: IDEMPOTENCY_TTL_MS,
    });
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
      // Unknown outcome: the claim stays until its lease ends, so no retry races a write that may still land.
      if (status >= 500) return Promise.resolve();
      return deps.store.idempotency.release(scope);
    };
    // Store the success before it is sent: a client that saw the response and retries must get the replay.
    res.json = (body: unknown) => {
      const status = res.statusCode;
      const finish =
        status >= 200 && status < 300 && !settled
          ? ((settled = true),
            deps.store.idempotency.complete({
              ...scope,
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
