/**
 * Liveness and readiness at the root path (seed "Health"): `/healthz` is 200 while the process runs; `/readyz`
 * runs the `oidc` check (provider built, issuer set) and, when a database is configured, `db` (a ping).
 */
import express, { type Router } from 'express';

export interface HealthCheckResult {
  status: 'ok' | 'error';
  error?: string;
}

export type HealthChecks = Record<string, () => Promise<void>>;

export async function runChecks(
  checks: HealthChecks,
): Promise<{ status: 'ok' | 'error'; checks: Record<string, HealthCheckResult> }> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, HealthCheckResult]> => {
      try {
        await check();
        return [name, { status: 'ok' }];
      } catch (error) {
        return [name, { status: 'error', error: error instanceof Error ? error.message : String(error) }];
      }
    }),
  );
  const results = Object.fromEntries(entries);
  return { status: entries.every(([, r]) => r.status === 'ok') ? 'ok' : 'error', checks: results };
}

export function healthRouter(checks: HealthChecks): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.set('cache-control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const result = await runChecks(checks);
    res
      .set('cache-control', 'no-store')
      .status(result.status === 'ok' ? 200 : 503)
      .json(result);
  });
  return router;
}
