// `npm test [-- <file|dir|glob…> <grep…> <mocha flags…>]`: with no selection, the typecheck, `npm run lint` and then
// the whole suite; with paths, only those files; with words, only tests whose title matches. Plain JavaScript (it
// runs before any build); mocha's settings come from .mocharc.cjs, passed with --no-config and the chosen specs.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const config = createRequire(import.meta.url)(join(root, '.mocharc.cjs'));
const args = process.argv.slice(2);

const specs = [];
const words = [];
const flags = [];
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i];
  if (arg.startsWith('-')) {
    flags.push(arg);
    // Flags with a value (`--grep x`, `-t 5000`) keep it.
    if (
      !arg.includes('=') &&
      args[i + 1] !== undefined &&
      !args[i + 1].startsWith('-') &&
      !isPath(args[i + 1]) &&
      takesValue(arg)
    )
      flags.push(args[(i += 1)]);
  } else if (isPath(arg)) specs.push(existsSync(arg) && statSync(arg).isDirectory() ? join(arg, '**/*.test.ts') : arg);
  else words.push(arg);
}

function isPath(arg) {
  return arg.includes('*') || /\.(ts|mjs|js)$/.test(arg) || existsSync(arg);
}

function takesValue(flag) {
  return [
    '--grep',
    '-g',
    '--fgrep',
    '-f',
    '--timeout',
    '-t',
    '--reporter',
    '-R',
    '--slow',
    '-s',
    '--ignore',
    '--jobs',
    '-j',
    '--reporter-option',
    '-O',
    '--require',
    '-r',
  ].includes(flag);
}

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

const selected = specs.length > 0 || words.length > 0;
if (!selected) {
  const typecheck = run('npx', ['--no-install', 'tsc', '-p', 'tsconfig.json', '--noEmit']);
  if (typecheck !== 0) process.exit(typecheck);
  const lint = run('npm', ['run', '--silent', 'lint']);
  if (lint !== 0) process.exit(lint);
} else {
  process.stderr.write(
    `test: ${[...specs, ...words.map((w) => `"${w}"`)].join(', ')} (no typecheck; \`npm test\` alone runs it and everything)\n`,
  );
}

const settings = ['--no-config', '--timeout', String(config.timeout)];
if (config.recursive) settings.push('--recursive');
if (config.exit) settings.push('--exit');
if (words.length > 0)
  settings.push(
    '--grep',
    words.length === 1 ? words[0] : words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
  );
const chosen = specs.length > 0 ? specs : config.spec;
process.exit(
  run(process.execPath, [
    '--import',
    config.import,
    join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    ...settings,
    ...flags,
    ...chosen,
  ]),
);
