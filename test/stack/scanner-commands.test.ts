/** The README's scanner section: every command of the CLI in the generated table, with the flag groups it takes. */
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { commands } from '../../scanner/cli.js';
import { parseHelp, scannerCommandsTable } from '../../stack/readme/scanner-commands.js';

describe('the README scanner commands table', () => {
  it('has one row per command the CLI dispatches, each naming its usage', async () => {
    const table = await scannerCommandsTable();
    const names = Object.entries(commands).flatMap(([group, family]) =>
      Object.keys(family).map((sub) => `scanner ${group} ${sub}`),
    );
    const rows = table.split('\n').slice(2);
    expect(rows).to.have.length(names.length);
    for (const name of names)
      expect(
        rows.some((row) => row.startsWith(`| \`${name} `)),
        name,
      ).to.equal(true);
  });

  it('reads the flag groups of a help text: its own flags, then each titled group', () => {
    const parsed = parseHelp(
      'Usage: scanner x y <a>\n\nDoes x\nto y.\n\n  --own <v>   mine\n  -h, --help  this help\n\nCurl flags:\n  -H, --header <h>  a header\n',
    );
    expect(parsed).to.deep.equal({
      usage: 'scanner x y <a>',
      summary: 'Does x to y.',
      sections: [
        { title: 'own', flags: ['--own'] },
        { title: 'Curl flags', flags: ['--header'] },
      ],
    });
  });

  it('covers scan graphql, report merge, --shard, --baseline and the --jwt-*-token flags', async () => {
    const readme = await readFile(fromRoot('README.md'), 'utf8');
    const scanner = readme.slice(readme.indexOf('## Scanner'), readme.indexOf('### Writing a custom check'));
    for (const term of [
      'scanner scan graphql',
      'scanner report merge',
      '--shard',
      '--baseline',
      '--jwt-expired-token',
      '--jwt-other-issuer-token',
      '--jwt-other-audience-token',
    ]) {
      expect(scanner, term).to.include(term);
    }
  });
});
