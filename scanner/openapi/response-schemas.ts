/**
 * What an OpenAPI operation promises to answer: status (`200`, `2XX`, `default`) → the JSON schema of that answer,
 * `$ref`s resolved inline and cut at a few levels (recursive schemas stay finite), so passive checks can compare a
 * response with its promise without the document.
 */
import { resolveRef } from './resolve-ref.js';

const MAX_DEPTH = 6;

/** A copy of `schema` with every local `$ref` replaced by its target, down to `MAX_DEPTH` levels. */
function inlineSchema(document: unknown, schema: unknown, depth = 0): unknown {
  const resolved = resolveRef<unknown>(document, schema);
  if (typeof resolved !== 'object' || resolved === null) return resolved;
  if (depth >= MAX_DEPTH) return {};
  if (Array.isArray(resolved)) return resolved.map((item) => inlineSchema(document, item, depth + 1));
  return Object.fromEntries(
    Object.entries(resolved).map(([key, value]) => [key, inlineSchema(document, value, depth + 1)]),
  );
}

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> } | undefined>;

export function responseSchemas(document: unknown, responses: unknown): Record<string, unknown> | undefined {
  const declared = resolveRef<Responses>(document, responses);
  if (!declared || typeof declared !== 'object') return undefined;
  const schemas: Record<string, unknown> = {};
  for (const [status, raw] of Object.entries(declared)) {
    const response = resolveRef<{ content?: Record<string, { schema?: unknown }> }>(document, raw);
    const content = response?.content ?? {};
    const media = content['application/json'] ?? Object.entries(content).find(([type]) => type.endsWith('+json'))?.[1];
    if (media?.schema !== undefined) schemas[status] = inlineSchema(document, media.schema);
  }
  return Object.keys(schemas).length > 0 ? schemas : undefined;
}
