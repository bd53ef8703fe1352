/** Runs the scanner CLI in-process with captured streams, and a tiny local target for CLI tests. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../scanner/cli.js';
import type { Report } from '../../../scanner/report/report-types.js';

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

/**
 * Runs a scan (`argv` without the report flags) writing its JSON report to a temporary file, without progress
 * lines; the run and the parsed report. Throws with the run's stderr when no report was written.
 */
export async function scanToReport(
  argv: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun & { report: Report }> {
  const dir = await mkdtemp(join(tmpdir(), 'scanner-report-'));
  try {
    const file = join(dir, 'report.json');
    const result = await runCli([...argv, '--no-progress', '--report-format', 'json', '--report-file', file], options);
    const text = await readFile(file, 'utf8').catch(() => {
      throw new Error(`no report written (exit ${result.code}): ${result.stderr}`);
    });
    return { ...result, report: JSON.parse(text) as Report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
