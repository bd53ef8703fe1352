/**
 * `npm run schema:scanner-config` (also part of `npm run docs`): writes schemas/scanner-config/scanner-config.schema.json
 * from the flag declarations (config-schema.ts), formatted as the repository formats JSON. A test fails while the
 * committed copy differs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { fromRoot } from '../../lib/project-root.js';
import { buildConfigSchema } from './config-schema.js';

const file = fromRoot('schemas', 'scanner-config', 'scanner-config.schema.json');
const before = await readFile(file, 'utf8').catch(() => '');
const after = await format(JSON.stringify(await buildConfigSchema()), {
  ...(await resolveConfig(file)),
  filepath: file,
});
if (after === before) process.stdout.write('schemas/scanner-config/scanner-config.schema.json is up to date\n');
else {
  await writeFile(file, after);
  process.stdout.write('schemas/scanner-config/scanner-config.schema.json updated\n');
}
