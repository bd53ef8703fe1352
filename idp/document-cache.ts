/**
 * Discovery and JWKS served from memory: the first request per issuer and request origin runs
 * oidc-provider once; its JSON is kept serialized with a strong ETag and sent as is afterwards, with
 * `Cache-Control: no-cache` (clients may keep it but must revalidate: keys rotate). Key rotation clears it.
 * Discovery is also trimmed there to what the configured clients can use (item 6).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CachedDocument {
  /** As text, sent where a sent buffer is transferred (workerd detaches it: a cached Buffer would be emptied). */
  body: string;
  /** As bytes, sent everywhere else: no encoding per request. */
  bytes: Buffer;
  length: number;
  etag: string;
  contentType: string;
  /** The headers of a 200 and of a 304, made once. */
  headers: { ok: Readonly<Record<string, string | number>>; notModified: Readonly<Record<string, string>> };
}

/** Public documents: any origin may read them (as oidc-provider answers them, CORS included). */
function headersOf(etag: string, contentType: string, length: number): CachedDocument['headers'] {
  const notModified = {
    etag,
    'cache-control': 'no-cache',
    'content-type': contentType,
    'access-control-allow-origin': '*',
    vary: 'Origin',
  };
  return { notModified, ok: { ...notModified, 'content-length': length } };
}

export interface DocumentCache {
  get(key: string): CachedDocument | undefined;
  set(key: string, json: unknown): CachedDocument;
  clear(): void;
}

const MAX_ENTRIES = 64;

/** workerd (the edge worker) transfers the ArrayBuffer of a sent Buffer to the response, detaching it. */
const TRANSFERS_SENT_BUFFERS =
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';

export function createDocumentCache(): DocumentCache {
  const entries = new Map<string, CachedDocument>();
  return {
    get: (key) => entries.get(key),
    set(key, json) {
      const body = JSON.stringify(json);
      const length = Buffer.byteLength(body);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      const contentType = 'application/json; charset=utf-8';
      const doc = {
        body,
        bytes: Buffer.from(body),
        length,
        etag,
        contentType,
        headers: headersOf(etag, contentType, length),
      };
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, doc);
      return doc;
    },
    clear: () => entries.clear(),
  };
}

/** Sends a cached document: 304 when If-None-Match names its ETag (RFC 9110 §13.1.2), else 200 with the body. */
export function sendCached(req: IncomingMessage, res: ServerResponse, doc: CachedDocument): void {
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim() === doc.etag || tag.trim() === '*')) {
    res.writeHead(304, doc.headers.notModified).end();
    return;
  }
  res.writeHead(200, doc.headers.ok);
  res.end(req.method === 'HEAD' ? undefined : TRANSFERS_SENT_BUFFERS ? doc.body : doc.bytes);
}

/**
 * Runs `handler` with the response captured instead of sent: resolves to the status and body it produced
 * (oidc-provider is Koa: it sets the status and headers, then calls end once).
 */
export function captureResponse(res: ServerResponse, handler: () => void): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    // Own properties over the prototype's methods, removed again once captured (restore re-exposes the prototype's).
    /* eslint-disable @typescript-eslint/unbound-method */
    const original = { write: res.write, end: res.end, writeHead: res.writeHead };
    /* eslint-enable @typescript-eslint/unbound-method */
    const restore = () => Object.assign(res, original);
    res.writeHead = (status: number) => {
      res.statusCode = status;
      return res;
    };
    res.write = ((chunk: unknown) => {
      if (chunk) chunks.push(Buffer.from(chunk as Buffer));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as Buffer));
      restore();
      resolve({ status: res.statusCode, body: Buffer.concat(chunks) });
      return res;
    }) as typeof res.end;
    handler();
  });
}
