/** `npm run build`'s second step: writes dist/scanner-bundle/ (scanner/bundle/build.ts) and says what it holds. */
import { relative } from 'node:path';
import { fromRoot } from '../../lib/project-root.js';
import { buildScannerBundle } from './build.js';

const bundle = await buildScannerBundle();
process.stdout.write(
  `${relative(fromRoot(), bundle.dir)}/: ${bundle.files} files, ${(bundle.bytes / 1e6).toFixed(1)} MB, ${bundle.checks} built-in checks\n`,
);
