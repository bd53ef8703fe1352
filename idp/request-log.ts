/**
 * One record per request (docs/architecture.md §3.4 "requests"): method, path, status, time taken, the
 * client and grant oidc-provider saw, the OAuth error. Logged at `debug`, and kept for the testing API when it is
 * on. The query string is kept with every credential-bearing parameter redacted; bodies and headers never are.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../lib/logger.js';
import { requestInfo } from './request-info.js';

export interface RequestRecord {
  seq: number;
  at: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  status: number;
  durationMs: number;
  clientId?: string;
  grantType?: string;
  error?: string;
}

/** Query parameters that carry a credential, a code or a token (RFC 6749, 7009, 7662, OIDC RP-initiated logout). */
const SECRET_PARAMS =
  /^(code|code_verifier|client_secret|client_assertion|token|access_token|refresh_token|id_token_hint|assertion|password|registration_access_token|state|nonce)$/;

export function redactQuery(search: string): Record<string, string> | undefined {
  if (!search || search === '?') return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) out[name] = SECRET_PARAMS.test(name) ? '[redacted]' : value;
  return out;
}

export interface RequestLog {
  /** Starts the record of a request; it is completed (and logged) when the response finishes. */
  observe(req: IncomingMessage, res: ServerResponse, mountPath?: string): void;
}

const MAX_KEPT = 1000;

export function createRequestLog(logger: Logger, keep?: RequestRecord[]): RequestLog & { seq(): number } {
  let seq = 0;
  return {
    seq: () => seq,
    observe(req, res) {
      // Nothing to record when no one reads it: the testing API is off and debug lines are not written.
      if (!keep && !logger.isLevelEnabled('debug')) return;
      const started = process.hrtime.bigint();
      const url = req.url ?? '/';
      const cut = url.indexOf('?');
      const path =
        (req as IncomingMessage & { originalUrl?: string }).originalUrl?.split('?')[0] ??
        (cut < 0 ? url : url.slice(0, cut));
      const query = cut < 0 ? undefined : redactQuery(url.slice(cut));
      res.once('finish', () => {
        const info = requestInfo(req);
        const record: RequestRecord = {
          seq: ++seq,
          at: new Date().toISOString(),
          method: req.method ?? 'GET',
          path,
          ...(query ? { query } : {}),
          status: res.statusCode,
          durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          ...(info?.clientId ? { clientId: info.clientId } : {}),
          ...(info?.grantType ? { grantType: info.grantType } : {}),
          ...(info?.error ? { error: info.error } : {}),
        };
        // The testing API's own calls are not what a test asks the provider about.
        if (keep && !/(^|\/)_testing(\/|$)/.test(record.path)) {
          keep.push(record);
          if (keep.length > MAX_KEPT) keep.splice(0, keep.length - MAX_KEPT);
        }
        logger.debug(
          {
            method: record.method,
            path: record.path,
            status: record.status,
            ms: record.durationMs,
            clientId: record.clientId,
            grantType: record.grantType,
            error: record.error,
          },
          'request',
        );
      });
    },
  };
}
