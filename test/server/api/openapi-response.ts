/**
 * Checks a real response against the served OpenAPI document, for the API tests (api-fixtures.ts `expectConforms`):
 * finds the operation by method and concrete path, the response by status (exact, then `4XX`, then `default`), and
 * validates the JSON body with the service's one Ajv. Returns problems as readable strings (none when it conforms).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajv } from '../../../lib/json-schema.js';
import { loadOpenApiDocument } from '../../../server/openapi/document.js';

const BUNDLE_ID = 'https://gatehouse.dev/openapi/components.json';
const API_PREFIX = '/api/v1';

type JsonObject = Record<string, unknown>;

let registered = false;
const validators = new Map<string, ValidateFunction>();

function pointToBundle(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(pointToBundle);
  if (node === null || typeof node !== 'object') return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? `${BUNDLE_ID}#/$defs/${value.slice('#/components/schemas/'.length)}`
        : pointToBundle(value);
  }
  return copy;
}

function ensureRegistered(document: JsonObject): void {
  if (registered) return;
  const schemas = ((document.components as JsonObject).schemas ?? {}) as JsonObject;
  if (!ajv.getSchema(BUNDLE_ID)) ajv.addSchema({ $id: BUNDLE_ID, $defs: pointToBundle(schemas) as JsonObject });
  registered = true;
}

/** The path template of the document that `path` (e.g. `/api/v1/organizations/org_1/registrations`) matches. */
function matchPathTemplate(document: JsonObject, path: string): string | undefined {
  const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
  const segments = relative.split('/');
  let best: { template: string; literals: number } | undefined;
  for (const template of Object.keys(document.paths as JsonObject)) {
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    const isParam = (p: string) => p.startsWith('{') && p.endsWith('}');
    if (!parts.every((p, i) => (isParam(p) ? (segments[i] ?? '') !== '' : p === segments[i]))) continue;
    // A literal segment beats a parameter (`/registrations/validation` over `/registrations/{id}`).
    const literals = parts.filter((p) => !isParam(p)).length;
    if (!best || literals > best.literals) best = { template, literals };
  }
  return best?.template;
}

export function validateResponse(method: string, path: string, status: number, body: unknown): string[] {
  const document = loadOpenApiDocument() as JsonObject;
  ensureRegistered(document);
  const template = matchPathTemplate(document, path.split('?')[0]);
  if (!template) return [`no path of the OpenAPI document matches ${path}`];
  const operation = ((document.paths as JsonObject)[template] as JsonObject)[method.toLowerCase()] as
    JsonObject | undefined;
  // A method the path does not document can only be answered with the documented 405.
  if (!operation && status !== 405) return [`${method.toUpperCase()} ${template} is not in the OpenAPI document`];
  const responses = (operation?.responses ?? {
    '405': { $ref: '#/components/responses/MethodNotAllowed' },
  }) as JsonObject;
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
  if (!key) return [`${method.toUpperCase()} ${template} does not document status ${status}`];
  let response = responses[key] as JsonObject;
  if (typeof response.$ref === 'string') {
    response = ((document.components as JsonObject).responses as JsonObject)[
      response.$ref.split('/').pop() as string
    ] as JsonObject;
  }
  const content = response.content as JsonObject | undefined;
  if (!content)
    return body === undefined ||
      body === '' ||
      (typeof body === 'object' && body !== null && Object.keys(body).length === 0)
      ? []
      : [`status ${status} documents no body`];
  const cacheKey = `${method} ${template} ${key}`;
  let validate = validators.get(cacheKey);
  if (!validate) {
    const schema = (content['application/json'] as JsonObject).schema;
    validate = ajv.compile(pointToBundle(schema) as JsonObject);
    validators.set(cacheKey, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${method.toUpperCase()} ${template} ${status}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}
