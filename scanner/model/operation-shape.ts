/**
 * What the model reads of one operation: its path and query parameters, its JSON body's fields (nested ones by JSON
 * Pointer), the schema names (`$ref`) of its body and answer, whether the answer is a list, the answer's fields, and
 * the words its description uses (summary, description, tags, security scopes). From the OpenAPI operation when the
 * scan has a description, else from the request itself (curl, GraphQL).
 */
import type { Operation } from '../api.js';
import { resolveRef } from '../openapi/resolve-ref.js';

type Schema = Record<string, unknown>;

export interface ShapeField {
  in: 'path' | 'query' | 'body';
  name: string;
  /** Body fields: where the value is (RFC 6901), `/username`, `/owner/id`. */
  pointer?: string;
  type?: string;
  format?: string;
  pattern?: string;
  /** The component schema the field's own schema refers to (`#/components/schemas/UserId` → `UserId`). */
  schemaName?: string;
  /** The component schema of the object holding the field (`Order` for `/userId` of an `Order` body). */
  parentSchema?: string;
  readOnly?: boolean;
  enum?: unknown[];
}

export interface OperationShape {
  fields: ShapeField[];
  requestSchema?: string;
  /** The request body's media type the description lists first (`application/json`, a form). */
  requestMedia?: string;
  responseSchema?: string;
  /** The 2xx JSON answer is an array, or an object wrapping one (`{ items: [...] }`). */
  responseIsList: boolean;
  /** Top-level fields of the answer's object (of its items, for a list), with their schema names. */
  responseFields: { name: string; type?: string; format?: string; schemaName?: string }[];
  /** Lower-cased summary, description, operationId, tags and OAuth scopes: what the documentation says. */
  documentation: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const refName = (value: unknown): string | undefined => {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' ? ref.split('/').at(-1) : undefined;
};

function typeOf(schema: Schema | undefined): string | undefined {
  const type: unknown = Array.isArray(schema?.type)
    ? (schema.type as unknown[]).find((t) => t !== 'null')
    : schema?.type;
  return typeof type === 'string' ? type : undefined;
}

/** An object schema's properties through allOf/oneOf/anyOf (first branch of a choice), `$ref`s kept for names. */
function properties(document: unknown, input: unknown, depth = 0): Record<string, unknown> {
  const schema = resolveRef<Schema>(document, input);
  if (!schema || typeof schema !== 'object' || depth > 8) return {};
  let out: Record<string, unknown> = {};
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const branch of key === 'allOf' ? list : list.slice(0, 1))
      out = { ...properties(document, branch, depth + 1), ...out };
  }
  return { ...out, ...((schema.properties ?? {}) as Record<string, unknown>) };
}

function bodyFields(document: unknown, input: unknown, pointer: string, parent: string | undefined, depth: number) {
  const fields: ShapeField[] = [];
  if (depth > 3) return fields;
  for (const [name, raw] of Object.entries(properties(document, input))) {
    const schema = resolveRef<Schema>(document, raw);
    const path = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const type = typeOf(schema);
    fields.push({
      in: 'body',
      name,
      pointer: path,
      ...(type ? { type } : {}),
      ...(typeof schema?.format === 'string' ? { format: schema.format } : {}),
      ...(typeof schema?.pattern === 'string' ? { pattern: schema.pattern } : {}),
      ...(refName(raw) ? { schemaName: refName(raw) } : {}),
      ...(parent ? { parentSchema: parent } : {}),
      ...(schema?.readOnly === true ? { readOnly: true } : {}),
      ...(Array.isArray(schema?.enum) ? { enum: schema.enum as unknown[] } : {}),
    });
    if (type === 'object' || schema?.properties)
      fields.push(...bodyFields(document, raw, path, refName(raw) ?? parent, depth + 1));
  }
  return fields;
}

function jsonMedia(document: unknown, holder: unknown): { schema?: unknown } | undefined {
  const content = resolveRef<{ content?: Record<string, { schema?: unknown }> }>(document, holder)?.content ?? {};
  const entries = Object.entries(content);
  return (
    entries.find(([type]) => type === 'application/json')?.[1] ??
    entries.find(([type]) => type.endsWith('+json') || type === '*/*')?.[1]
  );
}

function responseOf(
  document: unknown,
  responses: unknown,
): Pick<OperationShape, 'responseSchema' | 'responseIsList' | 'responseFields'> {
  const entries = Object.entries((responses ?? {}) as Record<string, unknown>)
    .filter(([status]) => /^2/.test(status))
    .sort();
  for (const [, raw] of entries) {
    const media = jsonMedia(document, raw);
    if (!media?.schema) continue;
    let holder: unknown = media.schema;
    let schema = resolveRef<Schema>(document, holder);
    let isList = false;
    if (typeOf(schema) === 'array') {
      isList = true;
      holder = schema?.items;
      schema = resolveRef<Schema>(document, holder);
    } else {
      // `{ items: [...], total }`: a page of a list.
      const wrapped = Object.entries(properties(document, holder)).find(
        ([, sub]) => typeOf(resolveRef<Schema>(document, sub)) === 'array',
      );
      const props = Object.keys(properties(document, holder));
      if (
        wrapped &&
        props.every(
          (p) =>
            p === wrapped[0] ||
            /^(total|count|page|pages|next|previous|limit|offset|cursor|size|per_?page|has_?more|links?|_links|meta)$/i.test(
              p,
            ),
        )
      ) {
        isList = true;
        holder = resolveRef<Schema>(document, wrapped[1])?.items;
        schema = resolveRef<Schema>(document, holder);
      }
    }
    const fields = Object.entries(properties(document, holder)).map(([name, sub]) => {
      const resolved = resolveRef<Schema>(document, sub);
      const type = typeOf(resolved);
      return {
        name,
        ...(type ? { type } : {}),
        ...(typeof resolved?.format === 'string' ? { format: resolved.format } : {}),
        ...(refName(sub) ? { schemaName: refName(sub) } : {}),
      };
    });
    return {
      ...(refName(holder) ? { responseSchema: refName(holder) } : {}),
      responseIsList: isList,
      responseFields: fields,
    };
  }
  return { responseIsList: false, responseFields: [] };
}

type Parameter = { name?: string; in?: string; schema?: unknown };

/** What the description says about `operation`, or what its request shows when there is no description. */
export function operationShape(operation: Operation, document?: Record<string, unknown>): OperationShape {
  const item = document
    ? resolveRef<Schema>(document, (document.paths as Schema | undefined)?.[operation.path])
    : undefined;
  const method = operation.method.toLowerCase();
  const op = item && METHODS.has(method) ? resolveRef<Schema>(document, item[method]) : undefined;
  if (!document || !op) return shapeFromRequest(operation);
  const parameters = [...((item?.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])]
    .map((p) => resolveRef<Parameter>(document, p))
    .filter((p): p is Parameter => Boolean(p?.name));
  const fields: ShapeField[] = [];
  for (const p of parameters) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    if (fields.some((f) => f.in === p.in && f.name === p.name)) continue;
    const schema = resolveRef<Schema>(document, p.schema);
    const type = typeOf(schema);
    fields.push({
      in: p.in,
      name: p.name!,
      ...(type ? { type } : {}),
      ...(typeof schema?.format === 'string' ? { format: schema.format } : {}),
      ...(typeof schema?.pattern === 'string' ? { pattern: schema.pattern } : {}),
      ...(refName(p.schema) ? { schemaName: refName(p.schema) } : {}),
      ...(Array.isArray(schema?.enum) ? { enum: schema.enum as unknown[] } : {}),
    });
  }
  const media = jsonMedia(document, op.requestBody);
  const requestSchema = refName(media?.schema);
  const requestMedia = Object.keys(
    resolveRef<{ content?: Record<string, unknown> }>(document, op.requestBody)?.content ?? {},
  )[0];
  if (media?.schema) fields.push(...bodyFields(document, media.schema, '', requestSchema, 0));
  const scopes = ((op.security ?? document.security ?? []) as Record<string, unknown>[]).flatMap((r) =>
    Object.values(r ?? {}).flat(),
  );
  const documentation = [op.summary, op.description, op.operationId, ...((op.tags as unknown[]) ?? []), ...scopes]
    .filter((t): t is string => typeof t === 'string')
    .join(' ')
    .toLowerCase();
  return {
    fields,
    ...(requestSchema ? { requestSchema } : {}),
    ...(requestMedia ? { requestMedia } : {}),
    ...responseOf(document, op.responses),
    documentation,
  };
}

/** Without a description: the path and query as sent, the JSON body's fields, nothing known of the answer. */
function shapeFromRequest(operation: Operation): OperationShape {
  const fields: ShapeField[] = [];
  for (const input of operation.inputs ?? [])
    if (input.in === 'path' || input.in === 'query')
      fields.push({ in: input.in, name: input.name, ...(input.type ? { type: input.type } : {}) });
  const url = new URL(operation.url);
  for (const name of url.searchParams.keys())
    if (!fields.some((f) => f.in === 'query' && f.name === name)) fields.push({ in: 'query', name });
  let body: unknown;
  try {
    body = operation.body === undefined ? undefined : JSON.parse(operation.body);
  } catch {
    body = undefined;
  }
  const walk = (value: unknown, pointer: string, depth: number): void => {
    if (!value || typeof value !== 'object' || Array.isArray(value) || depth > 3) return;
    for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
      const path = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const type = Array.isArray(sub) ? 'array' : sub === null ? undefined : typeof sub;
      fields.push({ in: 'body', name, pointer: path, ...(type ? { type: type === 'number' ? 'number' : type } : {}) });
      walk(sub, path, depth + 1);
    }
  };
  walk(body, '', 0);
  return {
    fields,
    responseIsList: false,
    responseFields: (operation.responseProperties ?? []).map((name) => ({ name })),
    documentation: [operation.summary, operation.operationId, ...(operation.tags ?? [])]
      .filter((t): t is string => typeof t === 'string')
      .join(' ')
      .toLowerCase(),
  };
}
