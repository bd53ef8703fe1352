/** `--users <file>`: reads the users document from disk (the CLI's job; other runtimes pass users directly). */
import { readFileSync } from 'node:fs';
import { parseUsers, type IdpUser } from './accounts.js';
import { idpError } from './errors.js';

export function readUsersFile(path: string): readonly IdpUser[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw idpError('invalid_users', `names a users file that cannot be read: ${path} (${reason})`, { cause: error });
  }
  try {
    return parseUsers(text);
  } catch (error) {
    throw idpError('invalid_users', `names a users file (${path}) that ${(error as Error).message}`, { cause: error });
  }
}
