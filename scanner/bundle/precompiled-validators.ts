/**
 * The scanner's schema validators compiled ahead of time (Ajv's standalone code), as the bundle's stand-ins for the
 * modules that compile them on first use: each stand-in exports the same function, returning the compiled validator.
 * Every schema of schemas/ is registered so references between them resolve.
 */
import * as standalone from 'ajv/dist/standalone/index.js';
import { createAjv, loadSchemas } from '../../lib/json-schema.js';
import { CHECK_META_SCHEMA_ID } from '../check-meta-validator.js';
import { REPORT_SCHEMA_ID } from '../report/report-types.js';

// Ajv's standalone module is CommonJS; under NodeNext its default export arrives as the module object.
const standaloneCode = standalone.default as unknown as typeof standalone.default.default;

/** Each module replaced in the bundle: its file name, the function it exports, the schema it validates. */
export const PRECOMPILED = [
  { file: 'check-meta-validator.js', exported: 'checkMetaValidator', schemaId: CHECK_META_SCHEMA_ID },
  { file: 'report-validator.js', exported: 'reportValidator', schemaId: REPORT_SCHEMA_ID },
] as const;

/** A CommonJS module whose export is the compiled validator of `schemaId`. */
export function compiledValidator(schemaId: string): string {
  const ajv = createAjv({ source: true });
  loadSchemas(ajv);
  const validate = ajv.getSchema(schemaId);
  if (!validate) throw new Error(`no JSON schema with id ${schemaId}`);
  return standaloneCode(ajv, validate);
}

/** The stand-in module: `exported()` returns the validator compiled in `compiledPath`. */
export function standInModule(exported: string, compiledPath: string): string {
  return [
    `import validate from ${JSON.stringify(compiledPath)};`,
    `export function ${exported}() { return validate; }`,
  ].join('\n');
}
