/**
 * A FerretDB process of a test's own (the cached build of .ci/ferretdb.sh), so a test can stop the database
 * mid-traffic and start it again on the same port with the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const FERRETDB_BIN =
  process.env.FERRETDB_BIN ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gatehouse', 'ferretdb-v1.24.2', 'ferretdb');

export function ferretdbAvailable(): boolean {
  return existsSync(FERRETDB_BIN);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface FerretDb {
  uri: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP: the process holds its sockets but answers nothing (a stalled database). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  /** SIGKILL: no shutdown at all (a crashed database); start() brings it back on the same port and data. */
  kill(): Promise<void>;
  /** Stops it and removes its data. */
  dispose(): Promise<void>;
}

export async function createFerretDb(dbName: string): Promise<FerretDb> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-ferretdb-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    child = spawn(
      FERRETDB_BIN,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${dir}/`,
        `--state-dir=${dir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--debug-addr=-',
        '--telemetry=disable',
        '--log-level=error',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 200; i += 1) {
      if (await accepts(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('FerretDB did not start');
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }

  async function signal(name: NodeJS.Signals): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null) throw new Error('FerretDB is not running');
    if (name !== 'SIGKILL') {
      running.kill(name);
      return;
    }
    child = undefined;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  }

  await start();
  return {
    uri: `mongodb://127.0.0.1:${port}/${dbName}`,
    start,
    stop,
    pause: () => void signal('SIGSTOP'),
    resume: () => void signal('SIGCONT'),
    kill: () => signal('SIGKILL'),
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
