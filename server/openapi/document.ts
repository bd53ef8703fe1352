/**
 * The OpenAPI 3.1 document of the public API: built once from the routes the service mounts (api-routes.ts) and
 * the schemas of schemas/, served as is at `GET /api/v1/openapi.json` and copied to schemas/openapi.json.
 */
import { deepFreeze } from '../../lib/deep-freeze.js';
import { fromRoot } from '../../lib/project-root.js';
import { API_ROUTES } from '../api-routes.js';
import { buildOpenApiDocument } from './build-document.js';
import { schemasById } from './bundle-schemas.js';

let cached: Record<string, unknown> | undefined;

export function loadOpenApiDocument(): Record<string, unknown> {
  cached ??= deepFreeze(buildOpenApiDocument(API_ROUTES, schemasById(fromRoot('schemas'))));
  return cached;
}
