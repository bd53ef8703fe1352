// Runs before `npm start` and `npm test` so both work on a fresh clone: installs dependencies when they are
// missing or older than package-lock.json (`npm ci`, whose prepare step builds dist/), else rebuilds dist/ when a
// source file is newer than the last build. Plain JavaScript with no dependencies: it runs before any install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const at = (...parts) => join(root, ...parts);
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (/\.(ts|json|mjs|html|css)$/.test(entry.name)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

function run(command, args) {
  process.stderr.write(`> ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const installed = at('node_modules', '.package-lock.json');
if (!existsSync(installed) || mtime(at('package-lock.json')) > mtime(installed)) {
  run('npm', ['ci', '--no-audit', '--no-fund']);
} else {
  const built = mtime(at('dist', '.tsbuildinfo'));
  const sources = Math.max(
    ...['lib', 'server', 'idp', 'scanner', 'checks', 'stack', 'demo', 'schemas'].map((d) => newest(at(d))),
    mtime(at('tsconfig.json')),
    mtime(at('tsconfig.build.json')),
  );
  if (sources > built) run('npm', ['run', '--silent', 'build']);
}
