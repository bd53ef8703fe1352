/**
 * `npm run demo:vulnerable-graphql [-- --secure] [-- --port N]`: starts the vulnerable GraphQL demo API (or its
 * secure twin) on 127.0.0.1 and prints the tokens of its users (opaque, and session JWTs) and the scan command to try
 * (the schema is written to a file in the system's temporary directory: the secure twin refuses introspection).
 * Loopback only, in memory.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemoBin } from '../demo-bin.js';
import { tokenOf } from '../vulnerable-api/store.js';
import { createGraphqlDemo } from './app.js';

runDemoBin({
  script: 'demo:vulnerable-graphql',
  defaultPort: 8889,
  create(secure) {
    const demo = createGraphqlDemo({ secure });
    // The secure twin refuses introspection: its owner scans it with the schema file, as a team would.
    const schemaFile = join(tmpdir(), `gatehouse-demo-graphql${demo.secure ? '-secure' : ''}.graphql`);
    writeFileSync(schemaFile, demo.sdl);
    const [alice, bob] = [tokenOf(demo.store, 'alice'), tokenOf(demo.store, 'bob')];
    return {
      app: demo.app,
      banner: (origin) => [
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
      ],
    };
  },
});
