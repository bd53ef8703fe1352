import { statSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';

describe('the build', () => {
  it('leaves every bin package.json names executable, as npx runs them from this folder', () => {
    // npm test builds dist/ first (stack/ensure-ready.mjs), with `npm run build`'s last step, stack/executable-bins.mjs.
    const { bin } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(Object.keys(bin)).to.have.members(['registration-service', 'idp', 'scanner']);
    for (const [name, file] of Object.entries(bin)) {
      expect(statSync(fromRoot(file)).mode & 0o111, `${name}: ${file}`).to.equal(0o111);
      expect(readFileSync(fromRoot(file), 'utf8').startsWith('#!/usr/bin/env node\n'), `${name}'s shebang`).to.equal(
        true,
      );
    }
  });
});
