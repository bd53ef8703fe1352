/**
 * The scanner's config file (issue #28 item 4): `--config FILE`, else `.gatehouse-scanner.yml` (or `.yaml`, `.json`)
 * in the working directory when present; YAML or JSON, one object. `${NAME}` in any string expands from the
 * environment, so credentials never sit in the file. What its keys mean is config-values.ts's business.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { load } from 'js-yaml';
import { scannerError } from '../errors.js';
import { expandEnvironment } from './expand-environment.js';

/** Looked for in the working directory, in this order, when no --config is given. */
export const DISCOVERED_NAMES = ['.gatehouse-scanner.yml', '.gatehouse-scanner.yaml', '.gatehouse-scanner.json'];

export interface ConfigFile {
  /** As the user knows it (relative to the working directory when inside it), for messages. */
  shown: string;
  data: Record<string, unknown>;
}

/** The file `--config` names, else the one found in `cwd`, else undefined. */
export function configPath(explicit: string | undefined, cwd: string): string | undefined {
  if (explicit !== undefined) return resolve(cwd, explicit);
  const found = DISCOVERED_NAMES.map((name) => resolve(cwd, name)).find((path) => existsSync(path));
  return found;
}

/** Reads, parses and expands a config file; every problem is one `invalid_argument` line naming the file. */
export async function readConfigFile(
  path: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ConfigFile> {
  const rel = relative(cwd, path);
  const shown = rel && !rel.startsWith('..') ? rel : path;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw scannerError('invalid_argument', `${shown}: cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  return { shown, data: parseConfig(text, shown, env) };
}

/** The config object of `text` (YAML or JSON), `${NAME}` expanded from `env`. */
function parseConfig(text: string, shown: string, env: Readonly<Record<string, string | undefined>>) {
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch (error) {
    throw scannerError('invalid_argument', `${shown}: not YAML or JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (parsed === undefined || parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw scannerError('invalid_argument', `${shown}: must be a mapping of settings (target: …, headers: […], …)`);
  return expandEnvironment(parsed as Record<string, unknown>, env, shown);
}
