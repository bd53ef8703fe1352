/**
 * One delivery attempt (Standard Webhooks): POST the delivery's body to the webhook's URL with `webhook-id` (the
 * event's id, the same on every attempt), `webhook-timestamp` (this attempt's, Unix seconds) and
 * `webhook-signature` (v1, HMAC-SHA256 of `id.timestamp.body`). Redirects are not followed, 10 s at most, only the
 * status is read (the body is never kept), and the target is refused when it is not public (webhook-target.ts).
 */
import { isIP } from 'node:net';
import got from 'got';
import { isPublicAddress, publicOnlyLookup } from './webhook-target.js';
import { signature } from './webhook-signing.js';
import type { DeliveryAttempt } from './webhooks.model.js';

const TIMEOUT_MS = 10_000;
const USER_AGENT = 'Gatehouse-Webhooks/1';

interface Attempted extends DeliveryAttempt {
  ok: boolean;
}

export async function sendDelivery(input: {
  url: string;
  secret: string;
  messageId: string;
  body: string;
  now: Date;
  allowPrivate: boolean;
}): Promise<Attempted> {
  const started = Date.now();
  const at = input.now;
  const timestamp = Math.floor(at.getTime() / 1000);
  const done = (outcome: Omit<Attempted, 'at' | 'durationMs'>): Attempted => ({
    at,
    durationMs: Date.now() - started,
    ...outcome,
  });
  if (!input.allowPrivate) {
    const host = new URL(input.url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !isPublicAddress(host)) return done({ ok: false, error: `${host} is not a public address` });
  }
  return new Promise<Attempted>((resolve) => {
    const stream = got.stream.post(input.url, {
      body: input.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': input.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(input.secret, input.messageId, timestamp, input.body),
      },
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: TIMEOUT_MS },
      ...(!input.allowPrivate && { dnsLookup: publicOnlyLookup as never }),
    });
    stream.once('response', (response: { statusCode: number }) => {
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      stream.destroy();
      resolve(done({ ok, statusCode: response.statusCode, ...(!ok && { error: `answered ${response.statusCode}` }) }));
    });
    stream.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EPRIVATETARGET'
          ? error.message
          : error.name === 'TimeoutError'
            ? 'no answer within 10 s'
            : `${error.code ?? error.name}`;
      resolve(done({ ok: false, error: reason }));
    });
  });
}
