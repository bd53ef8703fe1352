/**
 * Reading a JSON request body before oidc-provider does, and handing it the (possibly rewritten) bytes: its body
 * parser reads the request stream itself and warns about pre-parsed bodies, so the bytes are replayed on the same
 * request object instead (same length check, same limit).
 */
import type { IncomingMessage } from 'node:http';

/** oidc-provider's own limit on a request body. */
const LIMIT = 56 * 1024;

/** The body's bytes, or undefined when it exceeds the limit (the request is then refused by the caller). */
export async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > LIMIT) return undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  // Not destroyed when the limit stops the loop: node discards the rest once the answer is sent.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > LIMIT) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}

/** A JSON object, or undefined for anything else (oidc-provider then answers the bytes as it would have). */
export function jsonObject(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Makes the request readable again with these bytes as its body. */
export function replayBody(req: IncomingMessage, bytes: Buffer): void {
  req.headers['content-length'] = String(bytes.length);
  delete req.headers['transfer-encoding'];
  Object.defineProperty(req, 'readable', { value: true, configurable: true });
  Object.defineProperty(req, 'iterator', {
    configurable: true,
    value: async function* replayed() {
      yield bytes;
    },
  });
}
