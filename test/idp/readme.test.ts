import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { applySections, idpReadmeSections } from '../../stack/readme/generated-sections.js';

describe('idp: README', () => {
  it('carries the option and error tables generated from idp/settings.ts and idp/errors.ts (run `npm run docs` to update)', () => {
    const readme = readFileSync(new URL('../../idp/README.md', import.meta.url), 'utf8');
    expect(applySections(readme, idpReadmeSections())).to.equal(readme);
  });
});
