import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { idpErrorCodes } from '../../idp/errors.js';
import { idpSettings } from '../../idp/settings.js';
import { renderTable } from '../../lib/settings/render-table.js';

describe('idp: README', () => {
  const readme = () => readFileSync(new URL('../../idp/README.md', import.meta.url), 'utf8');

  it('carries the option table generated from the settings declarations (regenerate it with renderTable(idpSettings.settings))', () => {
    expect(readme()).to.contain(renderTable(idpSettings.settings));
  });

  it('carries the error table generated from idp/errors.ts', () => {
    const rows = Object.entries(idpErrorCodes).map(([code, when]) => `| \`${code}\` | ${when} |`);
    expect(readme()).to.contain(['| Code | When |', '|---|---|', ...rows].join('\n'));
  });
});
