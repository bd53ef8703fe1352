/**
 * The services one scan builds once and all its check tasks share: the HTTP client (one agent, the per-host rate
 * limit, the send gate) and the identity canary. A per-scan service another part adds (the API model,
 * docs/architecture.md §2.8) is one more field here, built in `createScanServices` and released in `close`.
 */
import { createScanHttp, type ScanHttp } from '../http.js';
import { canaryOperation, createIdentityCanary, type IdentityCanary } from '../identity-canary.js';
import type { ScanInput } from './scan-input.js';

export interface ScanServices {
  readonly http: ScanHttp;
  /** Present when an operation carries a credential to re-validate and the scan asked for it (`canaryEvery`). */
  readonly canary?: IdentityCanary;
  /** Releases what the services hold (the HTTP agent's sockets) once the scan is over. */
  close(): void;
}

export function createScanServices(input: ScanInput): ScanServices {
  const http = createScanHttp({
    rate: input.rate,
    requestTimeoutMs: input.requestTimeoutMs,
    connectTimeoutMs: input.connectTimeoutMs,
    followRedirects: input.followRedirects,
    maxRedirects: input.maxRedirects,
    tls: input.tls,
    proxy: input.proxy,
    allowDestructive: input.allowDestructive,
    maxBodyBytes: input.maxBodyBytes,
  });
  const canaryTarget = canaryOperation(input.operations);
  const canary =
    canaryTarget && input.canaryEvery !== undefined
      ? createIdentityCanary(http, canaryTarget, input.canaryEvery, input.signal)
      : undefined;
  return { http, ...(canary ? { canary } : {}), close: () => http.close() };
}
