/**
 * The project's one Ajv (JSON Schema 2020-12) instance. Every schema under `schemas/` is registered by its
 * `$id`, so validators are looked up by id and compiled once.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as addFormatsModule from 'ajv-formats';
import { fromRoot } from './project-root.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule.default as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * An Ajv configured as the project's: 2020-12, every error, strict, formats, the OpenAPI keywords our schemas carry.
 * `source: true` keeps the generated code, for validators compiled ahead of time (scanner/bundle/).
 */
export function createAjv(options: { source?: boolean } = {}): Ajv2020 {
  const instance = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    ...(options.source ? { code: { source: true } } : {}),
  });
  addFormats(instance);
  // OpenAPI 3.1 keywords that may sit inside schemas we also validate with.
  instance.addKeyword({ keyword: 'example' });
  instance.addKeyword({ keyword: 'discriminator' });
  instance.addKeyword({ keyword: 'x-codes' });
  return instance;
}

export const ajv = createAjv();

function* schemaFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* schemaFiles(path);
    else if (name.endsWith('.schema.json')) yield path;
  }
}

let loaded = false;

/** Registers every `schemas/**\/*.schema.json` file with `instance` (by default the project's, once). */
export function loadSchemas(instance: Ajv2020 = ajv): void {
  if (instance === ajv && loaded) return;
  for (const file of schemaFiles(fromRoot('schemas'))) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string };
    if (!schema.$id) throw new Error(`${file} has no $id`);
    if (!instance.getSchema(schema.$id)) instance.addSchema(schema);
  }
  if (instance === ajv) loaded = true;
}

/** The compiled validator for a schema `$id` (or `$id#/pointer`). */
export function validatorFor<T = unknown>(id: string): ValidateFunction<T> {
  loadSchemas();
  const validate = ajv.getSchema<T>(id);
  if (!validate) throw new Error(`no JSON schema with id ${id}`);
  return validate;
}

export { toFieldErrors } from './schema-errors.js';
