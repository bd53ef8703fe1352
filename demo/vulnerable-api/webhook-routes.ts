/**
 * `POST /api/webhooks`: registers a URL and sends it a test delivery. Vulnerable twin: the server fetches whatever
 * URL it is given (SSRF) — limited to loopback addresses so the demo can never reach anything beyond this machine.
 * Secure twin: refuses loopback, private and non-https URLs and never fetches during registration.
 */
import { isIP } from 'node:net';
import { Router } from 'express';
import { authenticate, callerOf } from './authenticate.js';
import type { Store } from './store.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const PRIVATE = /^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.|\[?::1\]?$|\[?f[cd])/i;

function parse(value: unknown): URL | undefined {
  try {
    return typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
}

export function webhookRoutes(store: Store, secure: boolean): Router {
  const router = Router();
  router.post('/api/webhooks', authenticate(store), async (req, res) => {
    const { url, event } = (req.body ?? {}) as Record<string, unknown>;
    const target = parse(url);
    if (!target || !['http:', 'https:'].includes(target.protocol))
      return void res.status(400).json({ error: 'url: an http(s) URL' });
    const hook = {
      id: store.nextId('wh'),
      userId: callerOf(res).id,
      url: target.href,
      event: typeof event === 'string' ? event : 'order.created',
    };
    if (secure) {
      const host = target.hostname;
      if (
        target.protocol !== 'https:' ||
        LOOPBACK.has(host) ||
        PRIVATE.test(host) ||
        (isIP(host) !== 0 && PRIVATE.test(host))
      ) {
        return void res.status(400).json({ error: 'url: a public https URL' });
      }
      store.webhooks.push(hook);
      return void res.status(201).json({ ...hook, delivery: 'queued' });
    }
    // The demo's own safety line, not a fix: it never sends a request off this machine.
    if (!LOOPBACK.has(target.hostname))
      return void res.status(400).json({ error: 'this demo only delivers to loopback URLs' });
    const answer = await fetch(target, {
      method: 'POST',
      body: JSON.stringify({ event: hook.event, test: true }),
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(2000),
    });
    store.webhooks.push(hook);
    res.status(201).json({ ...hook, delivery: { status: answer.status, body: (await answer.text()).slice(0, 200) } });
  });
  return router;
}
