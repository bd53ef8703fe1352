import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fromRoot } from '../../../lib/project-root.js';
import { readWranglerConfig, stripJsonComments } from '../../../idp/worker/wrangler-config.js';
import { buildWorkerBundle } from '../../../idp/worker/build.js';
import { testBundleDir } from './support/worker-idp.js';
import { workerConfigFrom } from '../../../idp/worker/worker-options.js';

describe('idp worker: wrangler.jsonc and the bundle it deploys', () => {
  it('deploys the bundle the tests run, with nodejs_compat, a date that has the node:http server modules, and the DB binding', () => {
    const config = readWranglerConfig();
    expect(config).to.include({ main: 'idp/worker/dist/worker.js', no_bundle: true });
    expect(config.compatibility_flags).to.include('nodejs_compat');
    expect(config.compatibility_date >= '2025-09-01').to.equal(true);
    // The entry reads env.DB.
    expect(config.d1_databases.map((d) => d.binding)).to.deep.equal(['DB']);
    expect(readFileSync(fromRoot('idp/worker/entry.ts'), 'utf8')).to.include('env.DB');
  });

  it('sets only valid IDP_* variables', () => {
    expect(() => workerConfigFrom(readWranglerConfig().vars ?? {})).to.not.throw();
  });

  it('strips comments outside strings only, and trailing commas', () => {
    expect(JSON.parse(stripJsonComments('{ "a": "http://x//y", /* c */ "b": [1, 2,], // d\n }'))).to.deep.equal({
      a: 'http://x//y',
      b: [1, 2],
    });
  });

  it('reuses the cached bundle while no input changed', async function () {
    this.timeout(60000);
    await buildWorkerBundle({ outDir: testBundleDir() });
    const again = await buildWorkerBundle({ outDir: testBundleDir() });
    expect(again.rebuilt).to.equal(false);
    expect(readFileSync(again.path, 'utf8')).to.match(
      /^import \{ createRequire as __idpCreateRequire \} from 'node:module';/,
    );
  });
});
