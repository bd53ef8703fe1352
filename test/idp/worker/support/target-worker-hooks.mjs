// Module hooks: test files under test/idp/ that import idp/create-idp get create-idp-on-worker.ts instead, so the
// Node IdP's relying-party suites run unchanged against the worker (only the base URL differs).
const shim = new URL('./create-idp-on-worker.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const parent = context.parentURL ?? '';
  if (/\/idp\/create-idp\.(ts|js)$/.test(resolved.url) && /\/test\/idp\/[^/]+\.test\.ts$/.test(parent)) {
    return { ...resolved, url: shim };
  }
  return resolved;
}
