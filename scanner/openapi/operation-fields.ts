/**
 * What a description says about one operation's inputs and answers, flattened for checks: the parameters and the JSON
 * body's top-level properties (type, format, pattern, readOnly, merged through allOf/oneOf/anyOf), the 2xx JSON
 * answer's top-level properties, and the GET that reads back what a write changed.
 */
import type { InputField } from '../api.js';
import { resolveRef } from './resolve-ref.js';

type Schema = Record<string, unknown>;

/** The properties of an object schema, merging allOf/oneOf/anyOf branches (first wins), with the required list. */
function objectProperties(
  document: unknown,
  input: unknown,
  depth = 0,
): { properties: Record<string, Schema>; required: string[] } {
  const schema = resolveRef<Schema>(document, input);
  const result = { properties: {} as Record<string, Schema>, required: [] as string[] };
  if (typeof schema !== 'object' || schema === null || depth > 8) return result;
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const branch of key === 'allOf' ? list : list.slice(0, 1)) {
      const sub = objectProperties(document, branch, depth + 1);
      result.properties = { ...sub.properties, ...result.properties };
      result.required.push(...sub.required);
    }
  }
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    const resolved = resolveRef<Schema>(document, sub);
    if (resolved && typeof resolved === 'object') result.properties[name] = resolved;
  }
  if (Array.isArray(schema.required))
    result.required.push(...schema.required.filter((r): r is string => typeof r === 'string'));
  return result;
}

function field(
  document: unknown,
  where: InputField['in'],
  name: string,
  raw: unknown,
  required: boolean,
  pointer?: string[],
): InputField {
  const schema = resolveRef<Schema>(document, raw) ?? {};
  const type: unknown = Array.isArray(schema.type) ? (schema.type as unknown[]).find((t) => t !== 'null') : schema.type;
  const example = exampleOf(schema);
  return {
    in: where,
    name,
    ...(pointer && pointer.length > 1 ? { pointer } : {}),
    ...(typeof type === 'string' ? { type } : schema.properties ? { type: 'object' } : {}),
    ...(typeof schema.format === 'string' ? { format: schema.format } : {}),
    ...(typeof schema.pattern === 'string' ? { pattern: schema.pattern } : {}),
    ...(typeof schema.maxLength === 'number' ? { maxLength: schema.maxLength } : {}),
    ...(schema.readOnly === true ? { readOnly: true } : {}),
    ...(required ? { required: true } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

/** The value the description gives for a schema, if any (example, examples, default, const, first enum value). */
function exampleOf(schema: Schema): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  return Array.isArray(schema.enum) ? schema.enum[0] : undefined;
}

type Parameter = { name?: string; in?: string; required?: boolean; schema?: unknown; example?: unknown };
type Media = { schema?: unknown };

/** The request body media the scanner can write: JSON first, then a form, then multipart. */
export function bodyMedia(content: unknown): { type: string; media: Media } | undefined {
  const entries = Object.entries((content ?? {}) as Record<string, Media>);
  const pick = (test: (type: string) => boolean): { type: string; media: Media } | undefined => {
    const found = entries.find(([type]) => test(type.toLowerCase()));
    return found ? { type: found[0], media: found[1] } : undefined;
  };
  return (
    pick((type) => type === 'application/json') ??
    pick((type) => type.endsWith('+json')) ??
    pick((type) => type === 'application/x-www-form-urlencoded') ??
    pick((type) => type === 'multipart/form-data')
  );
}

function jsonMedia(content: unknown): Media | undefined {
  const entries = Object.entries((content ?? {}) as Record<string, Media>);
  return (
    entries.find(([type]) => type === 'application/json')?.[1] ?? entries.find(([type]) => type.endsWith('+json'))?.[1]
  );
}

/** Nested body properties are declared down to this many keys (`a.b.c.d`), like the enumeration walks them. */
const BODY_DEPTH = 4;
const MAX_BODY_FIELDS = 60;

/** Body properties with their pointers: objects' properties and arrays' items (`tags.0`), depth-bounded. */
function bodyFields(
  document: unknown,
  schema: unknown,
  pointer: string[],
  required: string[],
  out: InputField[],
): void {
  if (pointer.length >= BODY_DEPTH || out.length >= MAX_BODY_FIELDS) return;
  const { properties, required: own } = objectProperties(document, schema);
  for (const [name, sub] of Object.entries(properties)) {
    if (out.length >= MAX_BODY_FIELDS) return;
    const at = [...pointer, name];
    out.push(field(document, 'body', name, sub, (pointer.length === 0 ? required : own).includes(name), at));
    const items = sub.type === 'array' ? resolveRef<Schema>(document, sub.items) : undefined;
    if (items && (items.type === 'object' || items.properties)) bodyFields(document, items, [...at, '0'], [], out);
    else if (sub.type === 'object' || sub.properties || sub.allOf) bodyFields(document, sub, at, [], out);
  }
}

export function inputFields(document: unknown, parameters: Parameter[], requestBody: unknown): InputField[] {
  const fields: InputField[] = [];
  for (const p of parameters) {
    if (!p.name || !['path', 'query', 'header', 'cookie'].includes(p.in ?? '')) continue;
    const declared = field(
      document,
      p.in as InputField['in'],
      p.name,
      p.schema,
      p.in === 'path' || p.required === true,
    );
    fields.push(p.example !== undefined ? { ...declared, example: p.example } : declared);
  }
  const media = bodyMedia(resolveRef<{ content?: unknown }>(document, requestBody)?.content);
  if (media) {
    const { required } = objectProperties(document, media.media.schema);
    bodyFields(document, media.media.schema, [], required, fields);
  }
  return fields;
}

/** Top-level properties of the first 2xx JSON answer's schema (of its items, for a list). */
export function responseProperties(document: unknown, responses: unknown): string[] {
  const entries = Object.entries((responses ?? {}) as Record<string, unknown>)
    .filter(([status]) => /^2/.test(status))
    .sort();
  for (const [, raw] of entries) {
    const media = jsonMedia(resolveRef<{ content?: unknown }>(document, raw)?.content);
    if (!media) continue;
    let schema = resolveRef<Schema>(document, media.schema);
    if (schema?.type === 'array') schema = resolveRef<Schema>(document, schema.items);
    const names = Object.keys(objectProperties(document, schema).properties);
    if (names.length > 0) return names;
  }
  return [];
}

/**
 * The GET that reads back a write: the same path (PUT/PATCH /users/{id}, PATCH /me), else the path plus one parameter
 * (POST /users → GET /users/{userId}); for a registration, a user read (GET /users/{id}), the user list (GET /users) or the self path (GET /me).
 */
export function readBackPath(template: string, method: string, getPaths: string[]): string | undefined {
  if (!['POST', 'PUT', 'PATCH'].includes(method)) return undefined;
  if (method !== 'POST' && getPaths.includes(template)) return template;
  const child = getPaths.find((path) =>
    new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\{[^}/]+\\}$`).test(path),
  );
  if (child) return child;
  if (getPaths.includes(template)) return template;
  // A registration creates a user: read it back as one (GET /users/{id}), in the list of users, or as itself with the
  // token it was given.
  if (/regist|sign-?up|accounts?$|users?$/i.test(template)) {
    return (
      getPaths.find((path) => /\/(users|accounts|members|profiles)\/\{[^}/]+\}$/.test(path)) ??
      getPaths.find((path) => /\/(users|accounts|members|profiles)$/.test(path)) ??
      getPaths.find((path) => /\/(me|self|profile|account|whoami|current-?user)$/i.test(path))
    );
  }
  return undefined;
}

const words = (text: string): string => text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** A POST that registers users, by its path, operationId or summary. */
export function isRegistration(method: string, template: string, operationId?: string, summary?: string): boolean {
  return method === 'POST' && /regist|sign[ _-]?up/.test(words(`${template} ${operationId ?? ''} ${summary ?? ''}`));
}

/** A POST that logs in, by its path, operationId or summary. */
export function isLogin(method: string, template: string, operationId?: string, summary?: string): boolean {
  return (
    method === 'POST' &&
    /log[ _-]?in|sign[ _-]?in|log[ _-]?on|authenticat|session|\btokens?\b/.test(
      words(`${template} ${operationId ?? ''} ${summary ?? ''}`),
    )
  );
}
