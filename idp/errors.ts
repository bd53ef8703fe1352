/**
 * The stub IdP's error codes, listed once (OAuth errors on the wire are oidc-provider's own). Every error the IdP
 * throws at start or from its programmatic surface is an AppError with one of these codes; the CLI prints its message
 * as one line and exits 1.
 */
import { AppError } from '../lib/app-error.js';
import { INVALID_SETTINGS } from '../lib/settings/settings-error.js';

export const idpErrorCodes = {
  [INVALID_SETTINGS]:
    'a flag, an `IDP_*` variable or a `createIdp` option is unknown, missing or invalid, or two of them disagree (every problem listed)',
  invalid_users:
    'the users document or the default user cannot be read, is not YAML or JSON, or has a user without `sub`',
  invalid_jwks: 'the signing keys (`--jwks-file`, `jwks`) cannot be read or are not a private JWKS with unique `kid`s',
  invalid_tls:
    'the TLS certificate or key (`--tls-cert`, `--tls-key`) cannot be read or do not match, or `--tls-ca-out` cannot be written',
  database_unavailable: 'the database (MongoDB, or D1 on the edge worker) does not answer',
  not_ready: 'the identity provider is still starting or waiting for its database',
  closed: 'the identity provider was closed before it was ready',
  unavailable_on_worker:
    'a setting that needs a file system, a socket, MongoDB or the testing API was given to the edge worker',
} as const;

export type IdpErrorCode = keyof typeof idpErrorCodes;

export function idpError(code: IdpErrorCode, message: string, options: { cause?: unknown } = {}): AppError {
  return new AppError(code, message, options);
}
