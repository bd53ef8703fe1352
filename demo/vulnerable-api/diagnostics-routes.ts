/**
 * Two operations that hand an input to a (SIMULATED, demo/vulnerable-api/mini-shell.ts) shell:
 * - `GET /api/admin/latency?host=`: staff statistics that ping a host. Vulnerable twin: any signed-in user gets
 *   in, and the host is pasted into `ping -c 1 <host>` — the output comes back. Secure twin: admins only, and the
 *   host must be a host name (then only the fake ping runs, no shell).
 * - `POST /api/mirrors/check {"mirror": …}`: queues a DNS check of a download mirror. Vulnerable twin: after
 *   answering, runs `nslookup "<mirror>"` — nothing comes back and nothing waits, so only a callback shows it.
 *   Secure twin: a host name only, never a shell.
 * What the shell asks for is bounded here: a sleep waits at most 5 s, fetches go to loopback URLs only (at most 3,
 * 2 s each), and nothing is ever spawned, written or left running.
 */
import { Router, type Response } from 'express';
import { authenticate, callerOf } from './authenticate.js';
import { runShell, type ShellRun } from './mini-shell.js';
import type { Store } from './store.js';

const HOST = /^[A-Za-z0-9.-]{1,253}$/;
const MAX_SLEEP_S = 5;
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//;

/** Performs what the simulated shell asked for, within the demo's bounds. */
async function sideEffects(run: ShellRun, wait: boolean): Promise<void> {
  for (const url of run.fetches.filter((u) => LOOPBACK.test(u)).slice(0, 3))
    await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
  if (wait && run.sleepSeconds > 0)
    await new Promise((resolve) => setTimeout(resolve, Math.min(run.sleepSeconds, MAX_SLEEP_S) * 1000));
}

const refuse = (res: Response, status: number, error: string): void => void res.status(status).json({ error });

export function diagnosticsRoutes(store: Store, secure: boolean): Router {
  const router = Router();
  router.get('/api/admin/latency', authenticate(store), async (req, res) => {
    const host = typeof req.query.host === 'string' ? req.query.host : '';
    if (secure) {
      if (callerOf(res).role !== 'admin') return refuse(res, 403, 'staff only');
      if (!HOST.test(host)) return refuse(res, 400, 'host: a host name');
      return void res.json({ host, output: runShell(`ping -c 1 ${host}`).output, latencyMs: 12 });
    }
    const run = runShell(`ping -c 1 ${host}`);
    await sideEffects(run, true);
    res.json({ host, output: run.output, latencyMs: 12 });
  });
  router.post('/api/mirrors/check', authenticate(store), (req, res) => {
    const { mirror } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof mirror !== 'string' || mirror === '') return refuse(res, 400, 'mirror: a host name');
    if (secure && !HOST.test(mirror)) return refuse(res, 400, 'mirror: a host name');
    res.status(202).json({ mirror, status: 'queued' });
    // After the answer: whatever the check prints or waits for, the client never sees it.
    if (!secure) setImmediate(() => void sideEffects(runShell(`nslookup "${mirror}"`), false));
  });
  return router;
}
