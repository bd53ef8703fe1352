/**
 * A FerretDB process of a test's own (the cached build of .ci/ferretdb.sh), so a test can stop the database
 * mid-traffic and start it again on the same port with the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const FERRETDB_BIN =
  process.env.FERRETDB_BIN ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gatehouse', 'ferretdb-v1.24.2', 'ferretdb');

export function ferretdbAvailable(): boolean {
  return existsSync(FERRETDB_BIN);
}

/** The kernel's range for the local ports of outgoing connections. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // not Linux: the IANA range
  }
  return [49152, 65535];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port outside the ephemeral range. A database that is down for a while on an ephemeral port can lose
 * that port to the clients reconnecting to it: one of their connects may get the very port as its own local port
 * and connect to itself (TCP simultaneous open), which keeps the restarted database from listening there and
 * leaves the client talking to itself.
 */
async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  const [from, to] = low > 12_000 ? [10_000, low - 1] : [high + 1, 65_535];
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${from}–${to}`);
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
  /** What the processes wrote to stderr (the last few KiB) and how any of them ended unasked: for a failing test. */
  diagnostics(): string;
}

export async function createFerretDb(dbName: string): Promise<FerretDb> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-ferretdb-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let stderrTail = '';
  const unaskedExits: string[] = [];

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
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const spawned = child;
    spawned.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-4096);
    });
    spawned.once('exit', (code, signal) => {
      if (child === spawned) unaskedExits.push(`exited by itself (code ${code}, signal ${signal})`);
    });
    for (let i = 0; i < 200; i += 1) {
      // Accepting on our port is not enough: another process may hold it (then ours exits at once).
      if (spawned.exitCode === null && (await accepts(port)) && spawned.exitCode === null) return;
      if (spawned.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`FerretDB did not start on port ${port}: ${diagnostics()}`);
  }

  function diagnostics(): string {
    return (
      `FerretDB ${child && child.exitCode === null ? 'running' : 'not running'}` +
      (unaskedExits.length ? `; ${unaskedExits.join('; ')}` : '') +
      (stderrTail ? `; stderr: ${stderrTail.trim()}` : '; nothing on stderr')
    );
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
    diagnostics,
  };
}
