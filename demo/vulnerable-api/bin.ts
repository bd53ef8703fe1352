/**
 * `npm run demo:vulnerable [-- --secure] [-- --port N]`: starts the vulnerable demo API (or its secure twin) on
 * 127.0.0.1 and prints the tokens of its users and the scan command to try. Loopback only, in memory, nothing kept.
 */
import { runDemoBin } from '../demo-bin.js';
import { createDemoApi } from './app.js';
import { tokenOf } from './store.js';

runDemoBin({
  script: 'demo:vulnerable',
  defaultPort: 8888,
  create(secure) {
    const demo = createDemoApi({ secure });
    const [alice, bob] = [tokenOf(demo.store, 'alice'), tokenOf(demo.store, 'bob')];
    return {
      app: demo.app,
      banner: (origin) => [
        `${demo.secure ? 'Secure twin of the' : 'Deliberately VULNERABLE'} demo API on ${origin} (loopback only, in memory)`,
        `  OpenAPI 3.1: ${origin}/openapi.json`,
        `  alice: Bearer ${alice}`,
        `  bob:   Bearer ${bob}`,
        '',
        'Scan it as alice, with bob as the second identity:',
        `  npx scanner scan openapi ${origin}/openapi.json --security-schemes bearer=${alice} \\`,
        `    --as-other 'Authorization: Bearer ${bob}'`,
      ],
    };
  },
});
