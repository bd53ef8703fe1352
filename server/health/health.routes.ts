/**
 * Liveness and readiness (DESIGN.md §1.9): `/healthz` answers as long as the process serves HTTP and touches
 * nothing; `/readyz` pings the store and answers 503 (with the error envelope) when it cannot serve.
 */
import { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { errorEnvelope } from '../middleware/error-envelope.js';

const READY_RETRY_AFTER_S = '5';

export function createHealthRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    try {
      await deps.store.ping();
      res.json({ status: 'ok', checks: { store: { status: 'ok' } } });
    } catch (err) {
      // The driver's text goes to the log only; the body says which check failed, not why in detail.
      (req.log ?? deps.logger).warn({ err, requestId: req.requestId }, 'readiness check failed: store');
      res
        .status(503)
        .set('Retry-After', READY_RETRY_AFTER_S)
        .json({
          ...errorEnvelope('unavailable', 'The service is not ready: the store is unavailable.', req.requestId),
          status: 'unavailable',
          checks: { store: { status: 'error', error: 'the store did not answer its ping' } },
        });
    }
  });
  return router;
}
