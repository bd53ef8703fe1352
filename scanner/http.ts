/**
 * The scan's one HTTP client (got): one keep-alive agent per scan, no retries, a per-request timeout, redirects only
 * when asked, TLS options from the curl flags, an optional proxy, and the per-host rate limit before every request.
 */
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { got, RequestError, type Response } from 'got';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import type { Operation, ProbeResponse } from './api.js';
import { scannerError } from './errors.js';
import { createRateLimiter, DEFAULT_RATE, type Rate } from './rate-limiter.js';
import { DEFAULT_MAX_BODY_BYTES, readBody } from './read-body.js';
import { createSendGate, RefusedRequest, type ModelGate } from './safety.js';

export interface TlsOptions {
  /** `-k`: do not verify the server certificate. */
  insecure?: boolean;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export interface TransportOptions {
  /** `-m/--max-time`: whole request budget (default 10 s, so a hanging target never stalls a scan). */
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** `-L`: follow redirects (default off). */
  followRedirects?: boolean;
  maxRedirects?: number;
  tls?: TlsOptions;
  proxy?: string;
  rate?: Rate;
  /** `--allow-destructive`: without it, destructive requests are refused here (scanner/safety.ts), before the wire. */
  allowDestructive?: boolean;
  /** The API model's write rule and what it learns from creates (scanner/model/scan-model.ts). */
  model?: ModelGate;
  /** `--max-body`: decoded bytes of a response body kept (default 5 MiB); the rest is discarded (scanner/read-body.ts). */
  maxBodyBytes?: number;
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body?: string;
  followRedirects?: boolean;
  signal?: AbortSignal;
  /** The operation the request was built from: its operationId and summary decide whether it is destructive. */
  operation?: Operation;
  /** The scan identity it is sent as (`first`, `other`…), when a check or the model sends it as one. */
  identity?: string;
  /** The check that sends it. */
  checkId?: string;
  /** The check restores what it changes (scanner/model/write-rule.ts lets a scan identity's password or e-mail change). */
  restores?: boolean;
}

export interface ScanHttp {
  /** Sends one request; throws `RefusedRequest` (nothing sent) for a destructive one the scan may not send. */
  send(request: WireRequest): Promise<ProbeResponse>;
  /** Whether `send` would refuse this request now (nothing is sent or counted). */
  wouldRefuse(request: WireRequest): boolean;
  /** Why `send` would refuse this request now (nothing is sent or counted). */
  refusal(request: WireRequest): string | undefined;
  requestsSent(): number;
  /** Requests refused by the send gate (never sent). */
  requestsRefused(): number;
  close(): void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/**
 * Response heads: Node's parser refuses more than this many bytes of status line and headers (a header flood ends as
 * one error, not as memory), and keeps at most `MAX_RESPONSE_HEADERS` header lines.
 */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_RESPONSE_HEADERS = 500;
/** Redirects followed (with -L) when --max-redirs does not say: a loop ends as one error. */
const DEFAULT_MAX_REDIRECTS = 30;

function readPem(path: string | undefined, flag: string): Buffer | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path);
  } catch {
    throw scannerError('invalid_argument', `${flag} ${path}: file cannot be read`);
  }
}

function createAgents(
  options: TransportOptions,
  tls: { ca?: Buffer; cert?: Buffer; key?: Buffer },
): { http: http.Agent; https: https.Agent } {
  const base = { keepAlive: true, maxSockets: 64 };
  const tlsBase = { ...base, rejectUnauthorized: !options.tls?.insecure, ca: tls.ca, cert: tls.cert, key: tls.key };
  if (options.proxy) {
    return {
      http: new HttpProxyAgent({ ...base, proxy: options.proxy }),
      https: new HttpsProxyAgent({ ...tlsBase, proxy: options.proxy }),
    };
  }
  return { http: new http.Agent(base), https: new https.Agent(tlsBase) };
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** A transport failure as one readable line (`network_error` or `tls_error`). */
function describeTransportError(error: unknown, method: string, url: string): Error {
  const code = error instanceof RequestError ? error.code : (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  // What a hostile target does to the scanner's HTTP client, said in the scanner's words.
  if (code === 'HPE_HEADER_OVERFLOW')
    return scannerError(
      'network_error',
      `${method} ${url}: response headers larger than ${MAX_HEADER_BYTES / 1024} KiB; not read`,
      {
        cause: error,
      },
    );
  if (code === 'ERR_TOO_MANY_REDIRECTS')
    return scannerError(
      'network_error',
      `${method} ${url}: ${message} (a redirect loop or a chain longer than --max-redirs)`,
      {
        cause: error,
      },
    );
  if (code && TLS_CODES.has(code))
    return scannerError(
      'tls_error',
      `${method} ${url}: TLS failure (${code}); use -k to skip certificate verification or --cacert`,
      { cause: error },
    );
  return scannerError('network_error', `${method} ${url}: ${message}`, { cause: error });
}

export function createScanHttp(options: TransportOptions = {}): ScanHttp {
  const pem = {
    ca: readPem(options.tls?.caFile, '--cacert'),
    cert: readPem(options.tls?.certFile, '--cert'),
    key: readPem(options.tls?.keyFile, '--key'),
  };
  const agent = createAgents(options, pem);
  const limiter = createRateLimiter(options.rate ?? DEFAULT_RATE);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const gate = createSendGate({ allowDestructive: options.allowDestructive, model: options.model });
  let sent = 0;
  return {
    async send(request) {
      const refusal = gate.refuse(request.operation, request);
      if (refusal) throw new RefusedRequest(refusal);
      const { host } = new URL(request.url);
      await limiter.acquire(host, request.signal);
      sent += 1;
      const started = performance.now();
      try {
        const stream = got.stream(request.url, {
          method: request.method as 'GET',
          headers: {
            'accept-encoding': 'gzip, deflate, br',
            // Streamed, a body would go chunked; its length is known, as a one-shot request would send it.
            ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}),
            ...request.headers,
          },
          allowGetBody: true,
          throwHttpErrors: false,
          retry: { limit: 0 },
          followRedirect: request.followRedirects ?? options.followRedirects ?? false,
          maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
          timeout: {
            request: requestTimeoutMs,
            ...(options.connectTimeoutMs ? { connect: options.connectTimeoutMs } : {}),
          },
          agent,
          https: {
            rejectUnauthorized: !options.tls?.insecure,
            certificateAuthority: pem.ca,
            certificate: pem.cert,
            key: pem.key,
          },
          // Decoded by readBody, which counts what arrives and what it decodes to (a compression bomb stops there).
          decompress: false,
          maxHeaderSize: MAX_HEADER_BYTES,
          signal: request.signal,
          cache: false,
          http2: false,
        });
        stream.once('request', (clientRequest: http.ClientRequest) => {
          clientRequest.maxHeadersCount = MAX_RESPONSE_HEADERS;
        });
        // A got stream is the request body too: written (or closed empty) here, whatever the method.
        stream.end(request.body);
        const response = await new Promise<Response>((ok, fail) => {
          stream.once('response', ok);
          stream.once('error', fail);
        });
        const { body, truncated } = await readBody(
          stream,
          response.headers['content-encoding'],
          options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        );
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (name === 'set-cookie' || value === undefined) continue;
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const setCookies = response.headers['set-cookie'] ?? [];
        if (setCookies.length > 0) headers['set-cookie'] = setCookies.join(', ');
        gate.observe(request, response.statusCode, headers, body);
        return {
          status: response.statusCode,
          headers,
          setCookies,
          body,
          durationMs: Math.round(performance.now() - started),
          ...(truncated ? { truncated } : {}),
        };
      } catch (error) {
        throw describeTransportError(error, request.method, request.url);
      }
    },
    wouldRefuse: (request) => gate.wouldRefuse(request.operation, request),
    refusal: (request) => gate.reasonFor(request.operation, request),
    requestsSent: () => sent,
    requestsRefused: () => gate.refused(),
    close() {
      agent.http.destroy();
      agent.https.destroy();
    },
  };
}
