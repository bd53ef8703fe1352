/**
 * Writes the OpenAPI 3.1 document of the public API from the routes the service mounts (api-routes.ts) and the
 * JSON Schemas of their bodies (schemas/api/): one operation per route, its parameters, body, success and error
 * responses following from what the route declares. The result is self-contained (bundle-schemas.ts) and is what
 * `GET /api/v1/openapi.json` serves; schemas/openapi.json is a copy kept for readers and tools (update-document.ts).
 */
import type { ApiRouteTrees } from '../api-routes.js';
import type { ApiRoute } from '../http/api-route.js';
import { bundleSchemas, type SchemaEntry } from './bundle-schemas.js';
import { API_BASE_PATH, INFO, SECURITY_SCHEME, SECURITY_SCHEME_NAME } from './document-info.js';
import { errorResponseRefs, errorResponses } from './error-responses.js';
import { headerRefs, RESPONSE_HEADERS, type ResponseHeader } from './headers.js';
import {
  IDEMPOTENCY_KEY_PARAMETER,
  ifMatchParameter,
  listParameters,
  ORGANIZATION_ID_PARAMETER,
  pathParameter,
} from './parameters.js';

type JsonObject = Record<string, unknown>;

/** Statuses every operation may answer: no or a bad token, a missing scope, not found, wrong method, throttled, down. */
const EVERY_OPERATION = [401, 403, 404, 405, 429, 500, 503];

const ref = ($ref: string) => ({ $ref });
const json = (schema: JsonObject) => ({ 'application/json': { schema } });

/** `/registrations/:id` → `/registrations/{id}`, and the parameter names in order. */
function templateOf(path: string): { template: string; names: string[] } {
  const names: string[] = [];
  const template = path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { template, names };
}

/** The error statuses of an operation: every operation's, the ones its inputs imply, and the ones it names. */
function errorStatuses(route: ApiRoute): number[] {
  const { doc } = route;
  const statuses = new Set([...EVERY_OPERATION, ...(doc.errors ?? [])]);
  if (doc.list || doc.body || route.idempotent) statuses.add(400);
  if (doc.body) for (const status of [413, 415, 422]) statuses.add(status);
  if (doc.ifMatch) statuses.add(412);
  if (route.idempotent) for (const status of [409, 422]) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

function successHeaders(route: ApiRoute): ResponseHeader[] {
  const { doc } = route;
  return [
    ...(doc.response.status === 201 ? (['Location'] as const) : []),
    ...(route.idempotent ? (['Idempotent-Replayed'] as const) : []),
    ...(doc.response.headers ?? []),
    ...(doc.list ? (['Link'] as const) : []),
    'RateLimit',
    'RateLimit-Policy',
  ];
}

function operationOf(route: ApiRoute, listName: (itemId: string) => string): JsonObject {
  const { doc } = route;
  const parameters = [
    ...(doc.list ? listParameters(doc.list.statuses) : []),
    ...(route.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...(doc.ifMatch ? [ifMatchParameter(doc.ifMatch === true ? undefined : doc.ifMatch)] : []),
  ];
  const { status = 200, description, schema } = doc.response;
  const body = schema && (doc.list ? ref(`#/components/schemas/${listName(schema)}`) : ref(schema));
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    security: [{ [SECURITY_SCHEME_NAME]: [route.scope] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body
      ? {
          requestBody: {
            ...(doc.body.description ? { description: doc.body.description } : {}),
            required: !doc.body.optional,
            content: json(ref(doc.body.schema)),
          },
        }
      : {}),
    responses: {
      [String(status)]: {
        description,
        ...(body ? { content: json(body) } : {}),
        headers: headerRefs(successHeaders(route)),
      },
      ...errorResponseRefs(errorStatuses(route)),
    },
  };
}

/** The path's own parameters, described by the routes on it (each must describe each of its parameters). */
function pathParameters(names: string[], routes: ApiRoute[]): JsonObject[] {
  return names.map((name) => {
    const descriptions = new Set(routes.map((route) => route.doc.pathParams?.[name]));
    const [description] = descriptions;
    if (descriptions.size !== 1 || description === undefined) {
      const operations = routes.map((route) => route.doc.operationId).join(', ');
      throw new Error(`path parameter :${name} needs one description in doc.pathParams of ${operations}`);
    }
    return pathParameter(name, description);
  });
}

/** The document's `paths` for one tree of routes, below `prefix` (whose parameters come first). */
function pathsOf(
  routes: readonly ApiRoute[],
  prefix: { path: string; parameters: JsonObject[] },
  listName: (itemId: string) => string,
): JsonObject {
  const byTemplate = new Map<string, { names: string[]; routes: ApiRoute[] }>();
  for (const route of routes) {
    const { template, names } = templateOf(`${prefix.path}${route.path}`);
    const entry = byTemplate.get(template) ?? { names, routes: [] };
    if (entry.routes.some((other) => other.method === route.method))
      throw new Error(`${route.method.toUpperCase()} ${template} is declared twice`);
    entry.routes.push(route);
    byTemplate.set(template, entry);
  }
  const paths: JsonObject = {};
  for (const [template, { names, routes: onPath }] of byTemplate) {
    const own = names.slice(prefix.parameters.length);
    const parameters = [...prefix.parameters, ...pathParameters(own, onPath)];
    paths[template] = {
      ...(parameters.length > 0 ? { parameters } : {}),
      ...Object.fromEntries(onPath.map((route) => [route.method, operationOf(route, listName)])),
    };
  }
  return paths;
}

/** `{ data: [item], nextCursor }`: the page of every list (http/pagination.ts). */
function pageSchema(itemId: string): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'nextCursor'],
    properties: { data: { type: 'array', items: ref(itemId) }, nextCursor: { type: ['string', 'null'] } },
  };
}

/** The document of these route trees, with the schemas of schemas/ (`schemasById`) their bodies name. */
export function buildOpenApiDocument(trees: ApiRouteTrees, schemas: Map<string, SchemaEntry>): JsonObject {
  const routes = [...trees.topLevel, ...trees.organizationScoped];
  const operationIds = routes.map((route) => route.doc.operationId);
  const repeated = operationIds.filter((id, i) => operationIds.indexOf(id) !== i);
  if (repeated.length > 0) throw new Error(`operationId used twice: ${repeated.join(', ')}`);

  const lists: JsonObject = {};
  const listName = (itemId: string): string => {
    const item = schemas.get(itemId);
    if (!item) throw new Error(`a list names the unknown schema ${itemId}`);
    lists[`${item.name}List`] = pageSchema(itemId);
    return `${item.name}List`;
  };
  const paths = {
    ...pathsOf(trees.topLevel, { path: '', parameters: [] }, listName),
    ...pathsOf(
      trees.organizationScoped,
      { path: '/organizations/:organizationId', parameters: [ORGANIZATION_ID_PARAMETER] },
      listName,
    ),
  };
  const tags = [...new Set(routes.map((route) => route.doc.tag))].map((name) => ({ name }));

  const document = {
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: API_BASE_PATH }],
    security: [{ [SECURITY_SCHEME_NAME]: [] }],
    tags,
    paths,
    components: {
      securitySchemes: { [SECURITY_SCHEME_NAME]: SECURITY_SCHEME },
      headers: RESPONSE_HEADERS,
      schemas: lists,
      responses: errorResponses(),
    },
  };
  return bundleSchemas(JSON.parse(JSON.stringify(document)) as Parameters<typeof bundleSchemas>[0], schemas);
}
