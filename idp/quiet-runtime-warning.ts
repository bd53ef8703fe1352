/**
 * oidc-provider warns "Unsupported runtime" at import on anything older than Node 22 LTS (and on workerd). This
 * project supports Node ≥ 20.19 and its suite runs on Node 20 and 24, so that one line is noise: it is dropped
 * while oidc-provider's module body runs (this module is imported just before it), every other warning passes,
 * and the filter removes itself on the next turn of the event loop.
 */
const original = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
  original(...args);
};
setTimeout(() => {
  console.warn = original;
}, 0);
