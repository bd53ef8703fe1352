import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { idpSettingsTable } from '../../idp/settings.js';

describe('idp: README', () => {
  it('carries the option table generated from the settings declarations (regenerate it with idpSettingsTable())', () => {
    const readme = readFileSync(new URL('../../idp/README.md', import.meta.url), 'utf8');
    expect(readme).to.contain(idpSettingsTable());
  });
});
