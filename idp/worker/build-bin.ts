/** `npm run worker:build`: writes idp/worker/dist/worker.js, the module wrangler.jsonc deploys (always rebuilt). */
import { buildWorkerBundle } from './build.js';

const bundle = await buildWorkerBundle({ force: true });
process.stdout.write(`${bundle.path} (${(bundle.bytes / 1e6).toFixed(1)} MB)\n`);
