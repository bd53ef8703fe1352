/**
 * `--suppressions FILE`: a YAML or JSON list of `{ fingerprint, reason, expires? }` (or an object holding it under
 * `suppressions`, so a config file's section can be reused as is), checked against
 * schemas/scanner-config/suppressions.schema.json. Any problem is one line naming the file and the entry.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { load } from 'js-yaml';
import { validatorFor } from '../../lib/json-schema.js';
import { toFieldErrors } from '../../lib/schema-errors.js';
import { scannerError } from '../errors.js';
import type { Suppression } from './suppressions.js';

export const SUPPRESSIONS_SCHEMA_ID = 'https://gatehouse.dev/schemas/scanner-config/suppressions.schema.json';

/** Checks a suppression list read from `source` (a file, or a config file's key); every problem in one error. */
export function checkSuppressions(value: unknown, source: string): Suppression[] {
  const validate = validatorFor<Suppression[]>(SUPPRESSIONS_SCHEMA_ID);
  if (!validate(value)) {
    const problems = toFieldErrors(validate.errors, 'suppressions').map((e) => `${e.path} ${e.message}`);
    throw scannerError('invalid_argument', `${source}: ${[...new Set(problems)].join('; ')}`);
  }
  const seen = new Set<string>();
  for (const [index, entry] of value.entries()) {
    if (seen.has(entry.fingerprint))
      throw scannerError(
        'invalid_argument',
        `${source}: suppressions[${index}] lists ${entry.fingerprint} again (one reason per finding)`,
      );
    seen.add(entry.fingerprint);
  }
  return value;
}

export async function readSuppressionsFile(path: string, cwd: string): Promise<Suppression[]> {
  const source = `--suppressions ${path}`;
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw scannerError('invalid_argument', `${source}: cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch (error) {
    throw scannerError('invalid_argument', `${source}: not YAML or JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const list =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'suppressions' in parsed
      ? parsed.suppressions
      : parsed;
  return checkSuppressions(list ?? [], source);
}
