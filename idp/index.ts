/** The stub IdP's public surface for other parts and for users' tests. */
export { createIdp, type RunningIdp, type RunningIssuer } from './create-idp.js';
export type { TestingApi } from './testing/testing-api.js';
export type { MintRequest, MintedToken } from './testing/mint.js';
export type { Fault, FaultEndpoint, NextLogin } from './testing/testing-state.js';
export type { RequestRecord } from './request-log.js';
export { DEMO_USER, type IdpUser } from './accounts.js';
export { DEFAULT_SCOPES, SERVICE_SCOPES, idpSettings, type IdpConfig, type IdpOptions } from './settings.js';
export { idpErrorCodes, type IdpErrorCode } from './errors.js';
export { ROUTES } from './provider.js';
export type { IdpStore } from './adapters/store.js';
