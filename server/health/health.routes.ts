/**
 * Liveness and readiness (docs/architecture.md §1.9, §1.10): `/healthz` answers as long as the process serves HTTP and touches
 * nothing; `/readyz` answers 200 only when the instance can serve: `store` (the database answers its ping),
 * `schema` (migrated to this build's version) and `authorizationServer` (the tokens this instance accepts can be
 * verified: a usable signing key cached or the JWKS fetchable; the introspection endpoint answering). Otherwise 503
 * with the error envelope and each check's reason; the cause of a failure goes to the log with its code and host
 * (never to the body). A stopping instance is not ready.
 */
import { Router } from 'express';
import { errorChain } from '../../lib/error-chain.js';
import { isAppError } from '../../lib/app-error.js';
import type { ApiDeps } from '../deps.js';
import { readSchemaState, schemaProblem, SCHEMA_VERSION } from '../store/schema-version.js';
import type { AuthorizationServer } from '../middleware/authorization-server.js';
import { errorEnvelope } from '../middleware/error-envelope.js';
import type { MongoStore } from '../store/mongo-store.js';

const READY_RETRY_AFTER_S = '5';

type Check =
  | { status: 'ok'; version?: number; note?: string; keys?: string; introspection?: string }
  | { status: 'error'; error: string };

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

/** Why the store is not ready, in words fit for any caller: an AppError's message is written for clients. */
function storeReason(err: unknown): string {
  return isAppError(err)
    ? `the store did not answer its ping (${err.message.replace(/\.$/, '')})`
    : 'the store did not answer its ping';
}

export function createHealthRouter(deps: ApiDeps, authorizationServer?: AuthorizationServer): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const log = req.log ?? deps.logger;
    const checks: Record<string, Check> = {};
    try {
      await deps.store.ping();
      checks.store = { status: 'ok' };
      checks.schema = await schemaCheck(deps);
    } catch (err) {
      log.warn({ check: 'store', cause: errorChain(err), requestId: req.requestId }, 'readiness check failed: store');
      // The reason, not the driver's text: this answer is on the public listener too (the log has the cause).
      checks.store = { status: 'error', error: storeReason(err) };
      checks.schema ??= { status: 'error', error: 'not checked: the store is unavailable' };
    }
    if (authorizationServer) {
      const found = await authorizationServer.check();
      if (found.status === 'ok') {
        const { status, ...detail } = found;
        checks.authorizationServer = { status, ...detail };
      } else {
        log.warn(
          { check: 'authorizationServer', cause: errorChain(found.cause), requestId: req.requestId },
          `readiness check failed: authorization server: ${found.error}`,
        );
        checks.authorizationServer = { status: 'error', error: found.error };
      }
    }
    const failed = Object.entries(checks).filter(([, check]) => check.status === 'error');
    if (failed.length === 0 && !deps.lifecycle?.stopping) {
      res.json({ status: 'ok', checks });
      return;
    }
    const message = deps.lifecycle?.stopping
      ? 'The service is not ready: it is shutting down.'
      : `The service is not ready: ${failed.map(([name, check]) => `${name}: ${(check as { error: string }).error}`).join('; ')}.`;
    res
      .status(503)
      .set('Retry-After', READY_RETRY_AFTER_S)
      .json({
        ...errorEnvelope('unavailable', message, req.requestId),
        status: 'unavailable',
        checks,
      });
  });
  return router;
}
