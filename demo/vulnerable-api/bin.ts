/**
 * `npm run demo:vulnerable [-- --secure] [-- --port N]`: starts the vulnerable demo API (or its secure twin) on
 * 127.0.0.1 and prints the tokens of its users and the scan command to try. Loopback only, in memory, nothing kept.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createDemoApi } from './app.js';
import { tokenOf } from './store.js';

const USAGE = 'usage: npm run demo:vulnerable -- [--secure] [--port N]';

const { values } = parseArgs({
  options: {
    secure: { type: 'boolean', default: false },
    port: { type: 'string', default: '8888' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
} else {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port ${values.port}: not a port number\n${USAGE}\n`);
    process.exitCode = 1;
  } else {
    const demo = createDemoApi({ secure: values.secure });
    const server = demo.app.listen(port, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const [alice, bob] = [tokenOf(demo.store, 'alice'), tokenOf(demo.store, 'bob')];
      process.stdout.write(
        [
          `${demo.secure ? 'Secure twin of the' : 'Deliberately VULNERABLE'} demo API on ${origin} (loopback only, in memory)`,
          `  OpenAPI 3.1: ${origin}/openapi.json`,
          `  alice: Bearer ${alice}`,
          `  bob:   Bearer ${bob}`,
          '',
          'Scan it as alice, with bob as the second identity:',
          `  npx scanner scan openapi ${origin}/openapi.json --security-schemes bearer=${alice} \\`,
          `    --as-other 'Authorization: Bearer ${bob}'`,
          '',
        ].join('\n'),
      );
    });
    server.on('error', (error) => {
      process.stderr.write(`demo:vulnerable: ${error.message}\n`);
      process.exitCode = 1;
    });
    const stop = (): void => void server.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
}
