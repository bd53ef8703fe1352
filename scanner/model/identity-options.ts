/**
 * The scan identities a command line gives (`--identity NAME[:role]=CREDENTIAL`, repeatable, and `--as-other`), as
 * the `IdentitySpec`s the model runs with; their secrets from environment variables or files (identity-spec.ts).
 */
import type { CliIo } from '../cli-io.js';
import { scannerError } from '../errors.js';
import { FIRST, OTHER } from './identities.js';
import { parseIdentity, type IdentitySpec } from './identity-spec.js';

export function identitiesFromOptions(
  options: Readonly<Record<string, unknown>>,
  io: Pick<CliIo, 'env' | 'cwd'>,
): IdentitySpec[] {
  const given = (options.identity as string[] | undefined) ?? [];
  const specs = given.map((text) => parseIdentity(text, { env: io.env ?? {}, cwd: io.cwd ?? process.cwd() }));
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.name)) throw scannerError('invalid_argument', `--identity ${spec.name}: given twice`);
    seen.add(spec.name);
  }
  if (seen.has(OTHER) && options.asOther !== undefined)
    throw scannerError('invalid_argument', '--identity other and --as-other both give the second identity: keep one');
  return specs;
}

/** Whether the first identity's credential is one the scanner obtains itself (the operations wait for its token). */
export const firstSignsIn = (specs: readonly IdentitySpec[]): boolean =>
  specs.some((s) => s.name === FIRST && (s.credential.kind === 'login' || s.credential.kind === 'oauth2'));
