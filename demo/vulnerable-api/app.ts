/**
 * The vulnerable demo API as an Express app (a factory: it never listens). `secure: false` plants one instance of
 * each OWASP API Top 10 2023 class the scanner looks for; `secure: true` is the same API with each one fixed (see the
 * route files). Both serve their OpenAPI 3.1 description at `/openapi.json`.
 */
import express, { type Express } from 'express';
import helmet from 'helmet';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { accountRoutes } from './account-routes.js';
import { authRoutes } from './auth-routes.js';
import { catalogRoutes } from './catalog-routes.js';
import { contentRoutes } from './content-routes.js';
import { diagnosticsRoutes } from './diagnostics-routes.js';
import { errorHandler } from './error-handler.js';
import { openapiDocument } from './openapi.js';
import { createStore, type Store } from './store.js';
import { webhookRoutes } from './webhook-routes.js';

export interface DemoApi {
  app: Express;
  store: Store;
  secure: boolean;
}

/** Generous on purpose: the secure twin shows its limit in headers without throttling a scan of itself. */
const PER_MINUTE = 6000;

export function createDemoApi(options: { secure?: boolean } = {}): DemoApi {
  const secure = options.secure === true;
  const store = createStore(secure);
  const app = express();
  if (secure) {
    app.disable('x-powered-by');
    app.use(helmet());
    const limiter = new RateLimiterMemory({ points: PER_MINUTE, duration: 60 });
    app.use((req, res, next) => {
      limiter
        .consume(req.ip ?? 'unknown')
        .then((state) => {
          res.set({ 'RateLimit-Limit': String(PER_MINUTE), 'RateLimit-Remaining': String(state.remainingPoints) });
          next();
        })
        .catch(() => res.status(429).json({ error: 'too many requests' }));
    });
  }
  // 24 kB keeps the planted ReDoS to a few seconds per request at worst: the demo must stay harmless to its host.
  app.use(express.json({ limit: '24kb' }));
  app.get('/openapi.json', (req, res) => void res.json(openapiDocument(`${req.protocol}://${req.get('host')}`)));
  app.get('/api/health', (_req, res) => void res.json({ status: 'ok' }));
  app.use(authRoutes(store, secure));
  app.use(catalogRoutes(store, secure));
  app.use(accountRoutes(store, secure));
  app.use(webhookRoutes(store, secure));
  app.use(diagnosticsRoutes(store, secure), contentRoutes(store, secure));
  app.use((_req, res) => void res.status(404).json({ error: 'not found' }));
  app.use(errorHandler(secure));
  return { app, store, secure };
}
