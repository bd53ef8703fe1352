/** One request as the scan's HTTP client sends it (scanner/http.ts), built from an operation and a probe (probe-request.ts). */
import type { Operation } from './api.js';

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body?: string;
  followRedirects?: boolean;
  signal?: AbortSignal;
  /** The operation the request was built from: its operationId and summary decide whether it is destructive. */
  operation?: Operation;
}
