/** The stub IdP's public surface for other parts and for users' tests. */
export { createIdp, type RunningIdp } from './create-idp.js';
export type { IdpOptions } from './options.js';
export { DEMO_USER, type IdpUser } from './accounts.js';
export { DEFAULT_SCOPES, SERVICE_SCOPES, idpSettings } from './settings.js';
export { ROUTES } from './provider.js';
export type { IdpStore } from './adapters/store.js';
