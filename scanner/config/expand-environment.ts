/**
 * `${NAME}` in a config value is the environment variable NAME (credentials stay out of the file; CI sets them from
 * its secrets). `$${NAME}` is the text `${NAME}`. Every variable that is not set is named in one error, with the key
 * that uses it.
 */
import { scannerError } from '../errors.js';

const REFERENCE = /\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function expandEnvironment(
  data: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  shown: string,
): Record<string, unknown> {
  const missing: string[] = [];
  const expand = (value: unknown, path: string): unknown => {
    if (typeof value === 'string')
      return value.replace(REFERENCE, (match: string, name: string) => {
        if (match.startsWith('$$')) return match.slice(1);
        const found = env[name];
        if (found === undefined) missing.push(`\${${name}} in ${path}`);
        return found ?? '';
      });
    if (Array.isArray(value)) return value.map((item, i) => expand(item, `${path}[${i}]`));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, path ? `${path}.${k}` : k)]));
    return value;
  };
  const expanded = expand(data, '') as Record<string, unknown>;
  if (missing.length > 0)
    throw scannerError(
      'invalid_argument',
      `${shown}: ${missing.join(', ')}: ${missing.length === 1 ? 'that variable is' : 'those variables are'} not set`,
    );
  return expanded;
}
