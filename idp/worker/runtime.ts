/** The workerd runtime settings the worker is built and tested for; wrangler.jsonc states the same (a test compares). */
export const COMPATIBILITY_DATE = '2026-04-01';
/** nodejs_compat: node:http, node:crypto, Buffer … for oidc-provider, Koa and Express; with a date ≥ 2025-09-01 it includes the node:http server modules. */
export const COMPATIBILITY_FLAGS = ['nodejs_compat'];
/** The D1 binding the worker reads its state from. */
export const D1_BINDING = 'DB';
