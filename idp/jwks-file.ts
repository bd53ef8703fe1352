/** `--jwks-file`: reads a private JWKS, or writes freshly generated keys there once with `--save-jwks`. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { checkPrivateJwks, generateSigningJwks, type PrivateJwks } from './keys.js';

function readJwksFile(path: string): PrivateJwks {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read --jwks-file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`--jwks-file ${path} is not JSON`);
  }
  return checkPrivateJwks(parsed, `--jwks-file ${path}`);
}

export async function loadOrCreateJwksFile(path: string, save: boolean): Promise<PrivateJwks> {
  if (existsSync(path) || !save) return readJwksFile(path);
  const generated = await generateSigningJwks();
  // 0600 and never overwriting: the file holds private keys.
  writeFileSync(path, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return generated;
}
