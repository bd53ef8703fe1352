import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { applySections, generatedSections } from '../../stack/readme/generated-sections.js';

describe('README.md', () => {
  it('opens with exactly the two set-up commands: npm start and npm test', async () => {
    const readme = await readFile(fromRoot('README.md'), 'utf8');
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = firstBlock
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands).to.deep.equal(['npm start', 'npm test']);
  });

  it('names only npm scripts that package.json defines', async () => {
    const readme = await readFile(fromRoot('README.md'), 'utf8');
    const { scripts } = JSON.parse(await readFile(fromRoot('package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const named = [...readme.matchAll(/npm run (?:-s |--silent )?([\w:-]+)/g)].map((m) => m[1]);
    expect(named).to.not.be.empty;
    expect(named.filter((name) => !(name in scripts))).to.deep.equal([]);
  });

  it('carries the configuration, error-code and check tables as the code declares them (run `npm run docs` to update)', async () => {
    const readme = await readFile(fromRoot('README.md'), 'utf8');
    expect(applySections(readme, await generatedSections())).to.equal(readme);
  });
});
