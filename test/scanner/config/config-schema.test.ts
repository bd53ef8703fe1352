/** schemas/scanner-config/scanner-config.schema.json: generated from the flag declarations, and agreeing with the scan's own reading. */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { format, resolveConfig } from 'prettier';
import { validatorFor } from '../../../lib/json-schema.js';
import { fromRoot } from '../../../lib/project-root.js';
import { scanSettings } from '../../../scanner/common-args.js';
import { buildConfigSchema, CONFIG_SCHEMA_ID } from '../../../scanner/config/config-schema.js';
import { configKeyOf } from '../../../scanner/config/config-keys.js';

const file = fromRoot('schemas', 'scanner-config', 'scanner-config.schema.json');

describe('the scanner config file’s JSON Schema', () => {
  it('is what the flag declarations generate (after changing a flag, run `npm run schema:scanner-config`)', async () => {
    const generated = await format(JSON.stringify(await buildConfigSchema()), {
      ...(await resolveConfig(file)),
      filepath: file,
    });
    expect(readFileSync(file, 'utf8')).to.equal(
      generated,
      'schemas/scanner-config/scanner-config.schema.json differs from the declarations: run `npm run schema:scanner-config` and commit it',
    );
  });

  it('has a key for every scan-wide flag a file can hold, and the flags of each kind and check', async () => {
    const { properties } = (await buildConfigSchema()) as { properties: Record<string, unknown> };
    for (const setting of Object.values(scanSettings.settings)) {
      const key = configKeyOf(setting.flag.slice(2));
      if (key) expect(properties, setting.flag).to.have.property(key);
    }
    for (const key of ['target', 'kind', 'headers', 'identities', 'suppressions', 'baseUrl', 'schema', 'asOther'])
      expect(properties).to.have.property(key);
    expect(properties).to.not.have.property('config');
  });

  it('accepts a file a scan accepts, and refuses an unknown key and a value of the wrong type', () => {
    const validate = validatorFor(CONFIG_SCHEMA_ID);
    const good = {
      target: 'https://api.example.com/openapi.json',
      kind: 'openapi',
      headers: ['Authorization: Bearer ${TOKEN}'],
      reportFormat: 'sarif',
      severityThreshold: 7,
      concurrency: '${CONCURRENCY}',
      identities: [
        { name: 'alice', header: 'Authorization: Bearer ${ALICE}' },
        { name: 'root', role: 'admin', login: { username: 'root', password: 'env:ROOT_PASSWORD' } },
      ],
      suppressions: [{ fingerprint: '0123456789abcdef0123456789abcdef', reason: 'accepted', expires: '2099-01-01' }],
    };
    expect(validate(good), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ ...good, concurency: 2 })).to.equal(false);
    expect(validate({ ...good, reportFormat: 'pdf' })).to.equal(false);
    expect(validate({ ...good, noProgress: 'yes' })).to.equal(false);
    expect(validate({ ...good, identities: [{ name: 'alice', token: 'x' }] })).to.equal(false);
  });
});
