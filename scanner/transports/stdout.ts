/** stdout transport: the report is the only thing the scanner writes to stdout. */
import type { CliIo } from '../cli-io.js';

export function writeToStdout(io: CliIo, text: string): void {
  io.stdout.write(text);
}
