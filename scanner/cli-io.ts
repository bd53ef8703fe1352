/** What the CLI may touch: two output streams, the environment, the working directory. `bin.ts` wires the process. */

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Whether stderr is a terminal (progress bar); defaults to `stderr.isTTY`. */
  isTTY?: boolean;
}
