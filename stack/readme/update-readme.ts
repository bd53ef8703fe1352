/** `npm run docs`: rewrites the generated tables of README.md from the code's declarations. */
import { readFile, writeFile } from 'node:fs/promises';
import { fromRoot } from '../../lib/project-root.js';
import { applySections, generatedSections } from './generated-sections.js';

const file = fromRoot('README.md');
const before = await readFile(file, 'utf8');
const after = applySections(before, await generatedSections());
if (after === before) process.stdout.write('README.md is up to date\n');
else {
  await writeFile(file, after);
  process.stdout.write('README.md updated\n');
}
