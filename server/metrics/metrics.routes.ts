/** `GET /metrics`: the registry in the Prometheus text format (internal listener only). */
import { Router } from 'express';
import type { Metrics } from './metrics.js';

export function createMetricsRouter(metrics: Metrics): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    const text = await metrics.registry.metrics();
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(text);
  });
  return router;
}
