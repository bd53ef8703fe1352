/**
 * The vulnerable GraphQL demo API as an Express app (a factory: it never listens). `secure: false` plants each class
 * of GraphQL weakness the scanner looks for (http-handler.ts, resolvers.ts, schema.ts); `secure: true` is the same API
 * with each one fixed. GraphQL at `/graphql`; the vulnerable twin also serves its GraphiQL page.
 */
import express, { type Express } from 'express';
import helmet from 'helmet';
import { buildSchema } from 'graphql';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { GRAPHIQL_PAGE } from './graphiql-page.js';
import { graphqlHandler } from './http-handler.js';
import { createRootValue } from './resolvers.js';
import { schemaSdl } from './schema.js';
import { createGraphqlStore, dump, type GraphqlStore } from './store.js';

export interface GraphqlDemo {
  app: Express;
  store: GraphqlStore;
  secure: boolean;
  /** The schema as SDL (the secure twin refuses introspection: scan it with `--schema`). */
  sdl: string;
  /** What a scan could change, as JSON (store.ts). */
  dump(): Record<string, unknown[]>;
}

/** Generous on purpose: the secure twin shows its limit in headers without throttling a scan of itself. */
const PER_MINUTE = 6000;

export function createGraphqlDemo(options: { secure?: boolean } = {}): GraphqlDemo {
  const secure = options.secure === true;
  const store = createGraphqlStore(secure);
  const sdl = schemaSdl(secure);
  const handle = graphqlHandler(buildSchema(sdl), createRootValue(store, secure), store, secure);
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
        .catch(() => res.status(429).json({ errors: [{ message: 'too many requests' }] }));
    });
  } else {
    app.get('/graphiql', (_req, res) => void res.type('html').send(GRAPHIQL_PAGE));
    app.get('/graphql', (req, res, next) =>
      req.accepts(['application/json', 'application/graphql-response+json', 'html']) === 'html' && !req.query.query
        ? void res.type('html').send(GRAPHIQL_PAGE)
        : next(),
    );
  }
  // Every body as text: graphql-http parses JSON itself, and the vulnerable twin reads batches and forms.
  app.use('/graphql', express.text({ type: () => true, limit: '64kb' }));
  app.all('/graphql', (req, res, next) => void handle(req, res).catch(next));
  app.get('/health', (_req, res) => void res.json({ status: 'ok' }));
  app.use((_req, res) => void res.status(404).json({ error: 'not found' }));
  return { app, store, secure, sdl, dump: () => dump(store) };
}
