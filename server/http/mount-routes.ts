/**
 * Turns a list of ApiRoutes into an Express router: per path, each method's chain (the `before` middleware, the
 * scope check, the Idempotency-Key handling of a create, the handler), then 405 with `Allow` for every other method.
 */
import { Router, type RequestHandler } from 'express';
import type { ApiDeps } from '../deps.js';
import { methodNotAllowed } from '../middleware/method-not-allowed.js';
import { requireScope } from '../middleware/require-scope.js';
import type { ApiRoute } from './api-route.js';
import { idempotentCreate } from './idempotency.js';

/** The routes grouped by path, in the order of their first route. */
function byPath(routes: readonly ApiRoute[]): Map<string, ApiRoute[]> {
  const groups = new Map<string, ApiRoute[]>();
  for (const route of routes) {
    const group = groups.get(route.path);
    if (group) group.push(route);
    else groups.set(route.path, [route]);
  }
  return groups;
}

/**
 * Paths that can match the same URL are tried literal segment first (`/registrations/validation` before
 * `/registrations/:id`), whatever order the list has: otherwise the parameter route would take the literal's
 * requests (and its 405 would refuse the literal's methods).
 */
function specificFirst(paths: string[]): string[] {
  const shape = (path: string) => path.split('/').map((segment) => (segment.startsWith(':') ? 1 : 0));
  const compare = (a: number[], b: number[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  };
  return [...paths].sort((a, b) => compare(shape(a), shape(b)));
}

/** The `Allow` list of a path: its methods in declaration order, HEAD beside GET (Express answers HEAD with GET). */
function allowed(group: readonly ApiRoute[]): string[] {
  return group.flatMap((route) => (route.method === 'get' ? ['GET', 'HEAD'] : [route.method.toUpperCase()]));
}

/** `before` runs ahead of every route's scope check (the per-subject rate limit of the routes outside an organization). */
export function mountRoutes(routes: readonly ApiRoute[], deps: ApiDeps, before: RequestHandler[] = []): Router {
  const router = Router();
  const groups = byPath(routes);
  for (const path of specificFirst([...groups.keys()])) {
    const group = groups.get(path) as ApiRoute[];
    const route = router.route(path);
    for (const { method, scope, idempotent, handler } of group) {
      route[method](...before, requireScope(scope), ...(idempotent ? [idempotentCreate(deps)] : []), handler(deps));
    }
    route.all(methodNotAllowed(allowed(group)));
  }
  return router;
}
