/** Validates SARIF logs against the vendored SARIF 2.1.0 schema (draft-04, compiled by its own Ajv: see schemas/sarif/README.md). */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import * as addFormatsModule from 'ajv-formats';
import { fromRoot } from '../../../lib/project-root.js';

const addFormats = addFormatsModule.default as unknown as (ajv: Ajv) => Ajv;

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  const schema = JSON.parse(readFileSync(fromRoot('schemas', 'sarif', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  // The schema's language pattern is not valid with the u flag, hence unicodeRegExp: false.
  // Draft-04's `$schema`/`id` are the only draft-04-only keywords in this file; the rest reads the same in draft-07.
  delete schema.$schema;
  delete schema.id;
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  compiled = ajv.compile(schema);
  return compiled;
}

/** Every schema violation as `path: message`; empty when the log is valid SARIF 2.1.0. */
export function sarifProblems(log: unknown): string[] {
  const validate = validator();
  if (validate(log)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}
