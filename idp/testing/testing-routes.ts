/**
 * The testing API and the debugger of each issuer that has the testing surface on: made once per issuer instance,
 * before it serves, and mounted under `/_testing` and `/_debugger` in front of the provider.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { debuggerRouter } from '../debugger/debugger-router.js';
import type { IssuerInstance } from '../issuer-instance.js';
import type { IdpConfig } from '../settings.js';
import { createTestingApi, type TestingApi } from './testing-api.js';
import { testingRouter } from './testing-router.js';

type InstanceRoutes = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface TestingRoutes {
  /** The routes of an instance (undefined without the testing API), made on first call. */
  routesFor: (instance: IssuerInstance) => InstanceRoutes | undefined;
  /** The testing API of an instance, once its routes were made. */
  apiOf: (instance: IssuerInstance) => TestingApi | undefined;
}

export function createTestingRoutes(config: IdpConfig): TestingRoutes {
  const apis = new Map<IssuerInstance, TestingApi>();
  const routes = new Map<IssuerInstance, InstanceRoutes>();
  return {
    routesFor(instance) {
      if (!instance.testing) return undefined;
      const made = routes.get(instance);
      if (made) return made;
      const api = createTestingApi(instance, config);
      apis.set(instance, api);
      const mounted = [
        { prefix: '/_testing', app: testingRouter(api) },
        { prefix: '/_debugger', app: debuggerRouter(instance) },
      ];
      const handler: InstanceRoutes = (req, res, next) => {
        const path = (req.url ?? '/').split('?')[0];
        const hit = mounted.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
        if (!hit) return next();
        req.url = req.url!.slice(hit.prefix.length) || '/';
        hit.app(req as never, res as never);
      };
      routes.set(instance, handler);
      return handler;
    },
    apiOf: (instance) => apis.get(instance),
  };
}
