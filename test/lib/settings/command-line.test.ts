import { expect } from 'chai';
import { readCommandLine } from '../../../lib/settings/command-line.js';
import type { SettingDeclarations } from '../../../lib/settings/declaration.js';
import { settingsProblems } from '../../../lib/settings/settings-error.js';

const settings = {
  port: { type: 'port', flag: '--port', doc: 'Port.' },
  skipPrompt: { type: 'boolean', flag: '--skip-prompt', doc: 'Skip.' },
  redirectUri: { type: 'list', flag: '--redirect-uri', doc: 'URIs.' },
  secret: { type: 'string', env: 'SECRET', doc: 'Not a flag.' },
} as const satisfies SettingDeclarations;

function problem(argv: string[], options = {}): string {
  try {
    readCommandLine(settings, argv, options);
  } catch (error) {
    return settingsProblems(error)![0];
  }
  return expect.fail('expected an invalid_settings error');
}

describe('lib/settings: readCommandLine', () => {
  it('returns flag values by setting key, every repetition of a list flag, and --help', () => {
    const line = readCommandLine(settings, [
      '--port',
      '1',
      '--redirect-uri',
      'a',
      '--redirect-uri=b',
      '--skip-prompt',
      '-h',
    ]);
    expect(line.flags).to.deep.equal({ port: '1', skipPrompt: true, redirectUri: ['a', 'b'] });
    expect(line.help).to.equal(true);
  });

  it('names an unknown flag and the closest declared one', () => {
    expect(problem(['--skip-promt'])).to.equal('unknown option --skip-promt (did you mean --skip-prompt?)');
    expect(problem(['--frobnicate'])).to.equal('unknown option --frobnicate');
  });

  it('says which flag needs a value and which takes none', () => {
    expect(problem(['--port'])).to.equal('--port needs a value');
    expect(problem(['--skip-prompt=maybe'])).to.equal('--skip-prompt takes no value');
  });

  it('refuses positionals unless asked for them', () => {
    expect(problem(['extra'])).to.equal('unexpected argument "extra"');
    expect(readCommandLine(settings, ['extra'], { positionals: true }).positionals).to.deep.equal(['extra']);
  });

  it('parses a command’s extra flags beside the declared ones', () => {
    expect(readCommandLine(settings, ['--seed', 'x'], { extra: { seed: { type: 'string' } } }).values.seed).to.equal(
      'x',
    );
  });
});
