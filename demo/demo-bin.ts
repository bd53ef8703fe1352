/**
 * What the demo APIs' entry points share: `--secure` (the secure twin), `--port N` on 127.0.0.1, `--help`; one
 * readable line and exit 1 for a bad port or a failed listen; a banner once listening (the tokens and the scan
 * command to try); stopped by SIGINT or SIGTERM. Loopback only, in memory, nothing kept.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { Express } from 'express';

export interface DemoBin {
  /** The npm script that runs it (for the usage line and errors). */
  script: string;
  defaultPort: number;
  /** The demo (or its secure twin), and the banner lines it prints once listening at `origin`. */
  create(secure: boolean): { app: Express; banner(origin: string): string[] };
}

export function runDemoBin(bin: DemoBin, argv: string[] = process.argv.slice(2)): void {
  const usage = `usage: npm run ${bin.script} -- [--secure] [--port N]`;
  let values: { secure: boolean; port: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        secure: { type: 'boolean', default: false },
        port: { type: 'string', default: String(bin.defaultPort) },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${bin.script}: ${(error as Error).message}\n${usage}\n`);
    process.exitCode = 1;
    return;
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port ${values.port}: not a port number\n${usage}\n`);
    process.exitCode = 1;
    return;
  }
  const demo = bin.create(values.secure);
  const server = demo.app.listen(port, '127.0.0.1', () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.stdout.write([...demo.banner(origin), ''].join('\n'));
  });
  server.on('error', (error) => {
    process.stderr.write(`${bin.script}: ${error.message}\n`);
    process.exitCode = 1;
  });
  const stop = (): void => void server.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
