/**
 * `npm run demo:vulnerable-graphql [-- --secure] [-- --port N]`: starts the vulnerable GraphQL demo API (or its
 * secure twin) on 127.0.0.1 and prints the tokens of its users (opaque, and session JWTs) and the scan command to try
 * (the schema is written to a file in the system's temporary directory: the secure twin refuses introspection).
 * Loopback only, in memory.
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tokenOf } from '../vulnerable-api/store.js';
import { createGraphqlDemo } from './app.js';

const USAGE = 'usage: npm run demo:vulnerable-graphql -- [--secure] [--port N]';

const { values } = parseArgs({
  options: {
    secure: { type: 'boolean', default: false },
    port: { type: 'string', default: '8889' },
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
    const demo = createGraphqlDemo({ secure: values.secure });
    // The secure twin refuses introspection: its owner scans it with the schema file, as a team would.
    const schemaFile = join(tmpdir(), `gatehouse-demo-graphql${demo.secure ? '-secure' : ''}.graphql`);
    writeFileSync(schemaFile, demo.sdl);
    const server = demo.app.listen(port, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const [alice, bob] = [tokenOf(demo.store, 'alice'), tokenOf(demo.store, 'bob')];
      process.stdout.write(
        [
          `${demo.secure ? 'Secure twin of the' : 'Deliberately VULNERABLE'} demo GraphQL API on ${origin}/graphql (loopback only, in memory)`,
          `  alice: Bearer ${alice}`,
          `  bob:   Bearer ${bob}`,
          // Session JWTs work as Bearer tokens too: scanned with them, the jwt.* checks attack session(token:).
          `  alice's session JWT (an hour): Bearer ${demo.store.sessions.issue('u1')}`,
          `  bob's session JWT (an hour):   Bearer ${demo.store.sessions.issue('u2')}`,
          '',
          'Scan it as alice, with bob as the second identity:',
          `  npx scanner scan graphql ${origin}/graphql -H 'Authorization: Bearer ${alice}' \\`,
          `    --as-other 'Authorization: Bearer ${bob}'${demo.secure ? ` --schema ${schemaFile}` : ''}`,
          `  (the schema as SDL: ${schemaFile})`,
          '',
        ].join('\n'),
      );
    });
    server.on('error', (error) => {
      process.stderr.write(`demo:vulnerable-graphql: ${error.message}\n`);
      process.exitCode = 1;
    });
    const stop = (): void => void server.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
}
