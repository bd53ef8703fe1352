/**
 * package.json's entry points as built: each subpath of `exports` names a module and its declarations in dist/ (the
 * `types` condition first, as TypeScript requires), inside the published `files`, and the module loads with the value
 * exports README.md's package table promises.
 */
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';

interface Manifest {
  exports: Record<string, string | Record<string, string>>;
  files: string[];
  bin: Record<string, string>;
}

/** The value exports README.md's package table ("Using Gatehouse from another project") lists per entry point. */
const PROMISED: Record<string, string[]> = {
  './idp': ['createIdp'],
  './scanner': ['defineCheck', 'defineOption'],
  './service': ['createApp', 'serviceConfig', 'createMemoryStore', 'createMongoStore'],
};

const manifest = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as Manifest;
const published = (path: string): boolean =>
  manifest.files.some((entry) => !entry.startsWith('!') && path.replace(/^\.\//, '').startsWith(entry));

describe("package.json's entry points", () => {
  it('offers gatehouse/idp, gatehouse/scanner and gatehouse/service', () => {
    expect(Object.keys(manifest.exports).filter((k) => k !== './package.json')).to.deep.equal([
      './idp',
      './scanner',
      './service',
    ]);
  });

  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    it(`${subpath}: types first, both files built and published, and the module loads with the README's exports`, async () => {
      expect(Object.keys(target)).to.deep.equal(['types', 'default']);
      for (const file of Object.values(target)) {
        expect(existsSync(fromRoot(file)), `${file} (npm run build)`).to.equal(true);
        expect(published(file), `${file} in "files"`).to.equal(true);
      }
      const loaded = (await import(pathToFileURL(fromRoot(target.default)).href)) as Record<string, unknown>;
      expect(PROMISED[subpath], `README's exports of ${subpath}`).to.be.an('array').that.is.not.empty;
      for (const name of PROMISED[subpath]) expect(loaded[name], `${subpath} exports ${name}`).to.be.a('function');
    });
  }

  it('publishes every bin', () => {
    for (const bin of Object.values(manifest.bin)) expect(published(bin), bin).to.equal(true);
  });
});
