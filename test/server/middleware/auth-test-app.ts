/**
 * A minimal app around `createAuthenticate` for the token tests: request id → authenticate → a route echoing
 * the principal → the service's error handler. Uses the local authorization server of test-auth.
 */
import { createServer, type Server } from 'node:http';
import express from 'express';
import supertest from 'supertest';
import { silentLogger } from '../../../lib/logger.js';
import { loadServiceConfig } from '../../../server/config.js';
import type { ApiDeps, Store } from '../../../server/deps.js';
import { createAuthenticate, type AuthenticateOptions } from '../../../server/middleware/authenticate.js';
import { errorHandler } from '../../../server/middleware/error-handler.js';
import { requestId } from '../../../server/middleware/request-id.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';

export interface AuthTestApp {
  auth: TestAuth;
  request: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

export async function startAuthTestApp(
  env: Record<string, string> = {},
  auth?: TestAuth,
  options: AuthenticateOptions = {},
): Promise<AuthTestApp> {
  const ownAuth = auth ?? (await startTestAuth());
  const deps: ApiDeps = {
    config: loadServiceConfig(ownAuth.env(env)),
    // The authenticate middleware never touches the store.
    store: {} as Store,
    logger: silentLogger,
    clock: () => new Date(),
  };
  const app = express();
  app.use(requestId());
  app.all('/whoami', createAuthenticate(deps, options), (req, res) => {
    const p = req.principal!;
    res.json({ sub: p.sub, clientId: p.clientId ?? null, scopes: [...p.scopes].sort(), tokenKind: p.tokenKind });
  });
  app.use(errorHandler(silentLogger));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    auth: ownAuth,
    request: supertest(server),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!auth) await ownAuth.close();
    },
  };
}
