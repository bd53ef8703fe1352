/** `npm run docs`: rewrites the generated tables of README.md and idp/README.md from the code's declarations. */
import { readFile, writeFile } from 'node:fs/promises';
import { fromRoot } from '../../lib/project-root.js';
import { applySections, generatedSections, idpReadmeSections } from './generated-sections.js';

for (const [name, sections] of [
  ['README.md', await generatedSections()],
  ['idp/README.md', idpReadmeSections()],
] as const) {
  const file = fromRoot(name);
  const before = await readFile(file, 'utf8');
  const after = applySections(before, sections);
  if (after === before) process.stdout.write(`${name} is up to date\n`);
  else {
    await writeFile(file, after);
    process.stdout.write(`${name} updated\n`);
  }
}
