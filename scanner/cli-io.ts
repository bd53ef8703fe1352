/** What the CLI may touch: two output streams, the environment, the working directory. `bin.ts` wires the process. */

interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

import type { Readable } from 'node:stream';

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Standard input: `scan openapi` reads a default token from its first line when it is not a terminal. */
  stdin?: Readable & { isTTY?: boolean };
  /** Aborting it (Ctrl-C) stops the scan: running checks end as errored and the partial report is still written. */
  signal?: AbortSignal;
  /** Whether stderr is a terminal (progress bar); defaults to `stderr.isTTY`. */
  isTTY?: boolean;
}
