/**
 * `npm run openapi` (also part of `npm run docs`): writes schemas/openapi.json from the routes and schemas
 * (document.ts), formatted as the repository formats JSON. A test fails while the committed copy differs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { fromRoot } from '../../lib/project-root.js';
import { loadOpenApiDocument } from './document.js';

const file = fromRoot('schemas', 'openapi.json');
const before = await readFile(file, 'utf8').catch(() => '');
const after = await format(JSON.stringify(loadOpenApiDocument()), {
  ...(await resolveConfig(file)),
  filepath: file,
});
if (after === before) process.stdout.write('schemas/openapi.json is up to date\n');
else {
  await writeFile(file, after);
  process.stdout.write('schemas/openapi.json updated\n');
}
