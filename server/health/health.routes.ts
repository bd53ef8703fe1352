/**
 * Liveness and readiness (DESIGN.md §1.9): `/healthz` answers as long as the process serves HTTP and touches
 * nothing; `/readyz` pings the store and checks its schema version, and answers 503 (with the
 * error envelope) when either says the service cannot serve.
 */
import { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { readSchemaState, schemaProblem, SCHEMA_VERSION } from '../store/schema-version.js';
import { errorEnvelope } from '../middleware/error-envelope.js';
import type { MongoStore } from '../store/mongo-store.js';

const READY_RETRY_AFTER_S = '5';

type Check = { status: 'ok'; version?: number; note?: string } | { status: 'error'; error: string };

async function schemaCheck(deps: ApiDeps): Promise<Check> {
  // The embedded store is built by this process; it has nothing to migrate.
  if (deps.store.kind !== 'mongo') return { status: 'ok' };
  const state = await readSchemaState((deps.store as MongoStore).connection);
  const problem = schemaProblem(state);
  if (problem) return { status: 'error', error: problem };
  return state.status === 'newer'
    ? {
        status: 'ok',
        version: state.version,
        note: `the database is migrated past this build's version ${SCHEMA_VERSION}`,
      }
    : { status: 'ok', version: state.version as number };
}

export function createHealthRouter(deps: ApiDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    let store: Check = { status: 'ok' };
    let schema: Check;
    try {
      await deps.store.ping();
      schema = await schemaCheck(deps);
    } catch (err) {
      // The driver's text goes to the log only; the body says which check failed, not why in detail.
      (req.log ?? deps.logger).warn({ err, requestId: req.requestId }, 'readiness check failed: store');
      store = { status: 'error', error: 'the store did not answer its ping' };
      schema = { status: 'error', error: 'not checked: the store is unavailable' };
    }
    if (store.status === 'ok' && schema.status === 'ok') {
      res.json({ status: 'ok', checks: { store, schema } });
      return;
    }
    const message =
      store.status === 'ok'
        ? 'The service is not ready: the database is not migrated.'
        : 'The service is not ready: the store is unavailable.';
    res
      .status(503)
      .set('Retry-After', READY_RETRY_AFTER_S)
      .json({
        ...errorEnvelope('unavailable', message, req.requestId),
        status: 'unavailable',
        checks: { store, schema },
      });
  });
  return router;
}
