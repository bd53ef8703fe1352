#!/usr/bin/env node
// `npm run build`'s last step: the files package.json names as bins become executable. npm sets the mode when it
// installs a package, but not for the package being built: `npx --package <this folder>` reuses an install it made of
// the folder before, so a fresh build's bins must already be executable ("scanner: Permission denied" otherwise).
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { bin } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
for (const file of Object.values(bin)) chmodSync(join(root, file), 0o755);
