/** `--users <file>`: reads the users document from disk (the CLI's job; other runtimes pass users directly). */
import { readFileSync } from 'node:fs';
import { parseUsers, type IdpUser } from './accounts.js';

export function readUsersFile(path: string): IdpUser[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read users file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseUsers(text, path);
}
