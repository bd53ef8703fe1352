import { expect } from 'chai';
import { defineSettings } from '../../../lib/settings/declaration.js';
import { renderHelp } from '../../../lib/settings/render-help.js';
import { renderTable } from '../../../lib/settings/render-table.js';

const { settings } = defineSettings({
  port: { type: 'port', flag: '--port', env: 'APP_PORT', default: 8080, doc: 'Listener port.' },
  format: {
    type: 'enum',
    choices: ['opaque', 'jwt'],
    flag: '--format',
    env: 'APP_FORMAT',
    default: 'opaque',
    doc: 'Token format.',
  },
  level: { type: 'enum', choices: ['info', 'debug'], env: 'APP_LEVEL', default: 'info', doc: 'Log level.' },
  scopes: { type: 'list', flag: '--scope', env: 'APP_SCOPES', doc: 'Scopes | more.' },
  retries: { type: 'integer', flag: '--retries', min: 1, max: 5, default: 3, doc: 'Attempts.' },
  secret: { type: 'string', env: 'APP_SECRET', secret: true, doc: 'A credential.' },
  verbose: { type: 'boolean', short: 'v', flag: '--verbose', doc: 'Say more.' },
  store: { type: 'custom', accept: (v: unknown) => v, doc: 'Code only: not documented here.' },
});

describe('lib/settings: the renderers', () => {
  it('writes --help with each flag, its value, notes, default and variable', () => {
    expect(renderHelp(settings, { heading: 'Options:' })).to.equal(
      [
        'Options:',
        '      --port <port>                  Listener port. (default 8080) [APP_PORT]',
        '      --format <opaque|jwt>          Token format. (default opaque) [APP_FORMAT]',
        '  APP_LEVEL                          Log level. (one of info, debug, default info)',
        '      --scope <value>                Scopes | more. (repeatable, comma-separated in the environment) [APP_SCOPES]',
        '      --retries <n>                  Attempts. (from 1 to 5, default 3)',
        '  APP_SECRET                         A credential. (or APP_SECRET_FILE: a file holding it)',
        '  -v, --verbose                      Say more.',
        '  -h, --help                         Show this help.',
      ].join('\n'),
    );
  });

  it('writes a README table with the flag and variable columns, the default and the notes', () => {
    expect(renderTable(settings)).to.equal(
      [
        '| Flag | Environment | Default | Meaning |',
        '|---|---|---|---|',
        '| `--port <port>` | `APP_PORT` | `8080` | Listener port. |',
        '| `--format <opaque\\|jwt>` | `APP_FORMAT` | `opaque` | Token format. |',
        '| — | `APP_LEVEL` | `info` | Log level. One of `info`, `debug`. |',
        '| `--scope <value>` | `APP_SCOPES` | — | Scopes \\| more. Repeatable; comma-separated in the environment. |',
        '| `--retries <n>` | — | `3` | Attempts. From 1 to 5. |',
        '| — | `APP_SECRET` | — | A credential. Or `APP_SECRET_FILE`: a file holding it. |',
        '| `-v, --verbose` | — | `false` | Say more. |',
      ].join('\n'),
    );
  });
});
