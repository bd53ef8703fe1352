/** `--jwks-file`: reads a private JWKS, or writes freshly generated keys there once with `--save-jwks`. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { idpError } from './errors.js';
import { checkPrivateJwks, generateSigningJwks, type PrivateJwks } from './keys.js';

function readJwksFile(path: string): PrivateJwks {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw idpError('invalid_jwks', `cannot read --jwks-file ${path} (${reason})`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw idpError('invalid_jwks', `--jwks-file ${path} is not JSON`, { cause: error });
  }
  try {
    return checkPrivateJwks(parsed);
  } catch (error) {
    throw idpError('invalid_jwks', `--jwks-file ${path} ${(error as Error).message}`, { cause: error });
  }
}

export async function loadOrCreateJwksFile(path: string, save: boolean): Promise<PrivateJwks> {
  if (existsSync(path) || !save) return readJwksFile(path);
  const generated = await generateSigningJwks();
  // 0600 and never overwriting: the file holds private keys.
  writeFileSync(path, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return generated;
}
