/**
 * The project's one Ajv (JSON Schema 2020-12) instance. Every schema under `schemas/` is registered by its
 * `$id`, so validators are looked up by id and compiled once.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as addFormatsModule from 'ajv-formats';
import { fromRoot } from './project-root.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule.default as unknown as (ajv: Ajv2020) => Ajv2020;

export const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);
// OpenAPI 3.1 keywords that may sit inside schemas we also validate with.
ajv.addKeyword({ keyword: 'example' });
ajv.addKeyword({ keyword: 'discriminator' });
ajv.addKeyword({ keyword: 'x-codes' });

function* schemaFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* schemaFiles(path);
    else if (name.endsWith('.schema.json')) yield path;
  }
}

let loaded = false;

/** Registers every `schemas/**\/*.schema.json` file once. */
export function loadSchemas(): void {
  if (loaded) return;
  for (const file of schemaFiles(fromRoot('schemas'))) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string };
    if (!schema.$id) throw new Error(`${file} has no $id`);
    if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
  }
  loaded = true;
}

/** The compiled validator for a schema `$id` (or `$id#/pointer`). */
export function validatorFor<T = unknown>(id: string): ValidateFunction<T> {
  loadSchemas();
  const validate = ajv.getSchema<T>(id);
  if (!validate) throw new Error(`no JSON schema with id ${id}`);
  return validate;
}

/** Ajv errors as `{ path, message }` with dotted paths and [index] (e.g. `config.redirectUris[2]`). */
export function toFieldErrors(
  errors: ErrorObject[] | null | undefined,
  prefix = '',
): { path: string; message: string }[] {
  return (errors ?? []).map((e) => {
    const segments = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'additionalProperties') segments.push(String(e.params.additionalProperty));
    if (e.keyword === 'required') segments.push(String(e.params.missingProperty));
    let path = prefix;
    for (const seg of segments) path += /^\d+$/.test(seg) ? `[${seg}]` : path ? `.${seg}` : seg;
    const message =
      e.keyword === 'additionalProperties'
        ? 'is not a known field'
        : e.keyword === 'required'
          ? 'is required'
          : (e.message ?? 'is invalid');
    return { path, message };
  });
}
