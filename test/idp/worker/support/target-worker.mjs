// `--import` this after tsx to run the test/idp relying-party suites against the worker: their import of
// idp/create-idp resolves to create-idp-on-worker.ts. tsx loads test files through require() or import(),
// so both resolvers are hooked; nothing else is redirected.
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const shim = fileURLToPath(new URL('./create-idp-on-worker.ts', import.meta.url));
const isTarget = (resolved, parent) =>
  /\/idp\/create-idp\.(ts|js)$/.test(resolved) && /\/test\/idp\/[^/]+\.test\.ts$/.test(parent ?? '');

const original = Module._resolveFilename;
Module._resolveFilename = function resolveFilename(request, parent, ...rest) {
  const resolved = original.call(this, request, parent, ...rest);
  return isTarget(resolved, parent?.filename) ? shim : resolved;
};

register('./target-worker-hooks.mjs', import.meta.url);
