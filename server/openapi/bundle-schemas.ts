/**
 * Makes the OpenAPI document self-contained: every `$ref` to a `schemas/**\/*.schema.json` `$id` (the schemas the
 * service validates requests with) is copied into `components.schemas` and the reference rewritten, so the
 * served document and the validators cannot drift and clients need no second fetch.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A schema of schemas/ and the name its component gets in the document. */
export interface SchemaEntry {
  name: string;
  schema: JsonObject;
}

function* schemaFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* schemaFiles(path);
    else if (name.endsWith('.schema.json')) yield path;
  }
}

/** Every schema under `dir` by `$id`, with the component name it gets (its `title`, or its file name in PascalCase). */
export function schemasById(dir: string): Map<string, SchemaEntry> {
  const byId = new Map<string, SchemaEntry>();
  for (const file of schemaFiles(dir)) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
    if (typeof schema.$id !== 'string') continue;
    const fromFile = basename(file, '.schema.json')
      .split(/[-_.]/)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('');
    const title =
      typeof schema.title === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(schema.title) ? schema.title : fromFile;
    byId.set(schema.$id, { name: title, schema });
  }
  return byId;
}

/** Returns a copy of `document` with every external schema reference bundled into `components.schemas`. */
export function bundleSchemas(document: JsonObject, byId: Map<string, SchemaEntry>): JsonObject {
  const handWritten = new Set(
    Object.keys(((document.components as JsonObject | undefined)?.schemas as JsonObject | undefined) ?? {}),
  );
  const names = new Map<string, string>();
  const pending: string[] = [];

  function rewriteRef(ref: string, localBase: string | undefined): string {
    if (ref.startsWith('#')) return localBase !== undefined ? `${localBase}${ref.slice(1)}` : ref;
    const [id, fragment = ''] = ref.split('#') as [string, string?];
    const entry = byId.get(id);
    if (!entry) throw new Error(`OpenAPI document refers to unknown schema ${id}`);
    if (!names.has(id)) {
      const taken = handWritten.has(entry.name) || [...names.values()].includes(entry.name);
      if (taken) throw new Error(`schema ${id} would replace components.schemas.${entry.name}`);
      names.set(id, entry.name);
      pending.push(id);
    }
    return `#/components/schemas/${entry.name}${fragment}`;
  }

  function rewrite(node: Json, localBase: string | undefined): Json {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, localBase));
    if (node === null || typeof node !== 'object') return node;
    const copy: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      copy[key] =
        key === '$ref' && typeof value === 'string' ? rewriteRef(value, localBase) : rewrite(value, localBase);
    }
    return copy;
  }

  const out = rewrite(document, undefined) as JsonObject;
  const components = (out.components ??= {}) as JsonObject;
  const schemas = (components.schemas ??= {}) as JsonObject;
  while (pending.length > 0) {
    const id = pending.shift() as string;
    const { name, schema } = byId.get(id) as SchemaEntry;
    const { $id: _id, $schema: _schema, ...rest } = schema;
    // Local references inside the bundled schema (`#/$defs/x`) now point into its component.
    schemas[name] = rewrite(rest, `#/components/schemas/${name}`);
  }
  return out;
}
