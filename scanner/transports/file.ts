/** file transport: writes (creates or truncates) `--report-file`. */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { scannerError } from '../errors.js';

export async function writeToFile(path: string, text: string, cwd: string): Promise<void> {
  try {
    await writeFile(resolve(cwd, path), text, 'utf8');
  } catch (error) {
    throw scannerError(
      'report_transport_failed',
      `--report-file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'cannot be written'}`,
      { cause: error },
    );
  }
}
