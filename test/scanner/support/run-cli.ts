/** Runs the scanner CLI in-process with captured streams, and a tiny local target for CLI tests. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { run } from '../../../scanner/cli.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  argv: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
    env: options.env ?? {},
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}

export interface Target {
  url: string;
  requests: number;
  close(): Promise<void>;
}

/** `GET /ok` → 200 with a Server header; anything else → 404. */
export async function startTarget(handler?: http.RequestListener): Promise<Target> {
  const state = { requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests += 1;
    if (handler) return handler(req, res);
    res
      .writeHead(req.url?.startsWith('/ok') ? 200 : 404, { server: 'fixture/1.0', 'content-type': 'text/plain' })
      .end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
