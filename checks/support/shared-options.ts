/**
 * The options several checks read, declared once (docs/architecture.md §2.7): each check lists the same object in its `options`,
 * so the flag, its doc and whether it is a secret cannot drift between checks. An option one check reads is declared
 * in that check.
 */
import { defineOption } from '../../scanner/api.js';

/** The second identity: object-level authorization checks (bola.*), and jwt.audience_not_validated's relayed token. */
export const AS_OTHER = defineOption({
  name: 'asOther',
  type: 'header',
  flag: '--as-other',
  doc: "a second identity's credential header (another user of the API)",
  secret: true,
});

/**
 * More scan identities (scanner/model/identity-spec.ts): `NAME[:role]='Header: value'`, or a credential the scanner
 * obtains and renews itself (`login:…`, `client-credentials:…`, `password-grant:…`). Read by the API model; declared by
 * the checks that compare identities.
 */
export const IDENTITY = defineOption({
  name: 'identity',
  type: 'string[]',
  flag: '--identity',
  valueName: '<NAME[:role]=CREDENTIAL>',
  doc: "a scan identity: NAME[:role]='Header: value', or login:username=…&password=env:VAR (first: the supplied one; other: --as-other)",
  secret: true,
});

/** Extra weak-secret dictionaries: jwt.weak_secret, and the claim checks that re-sign a token with a found secret. */
export const JWT_SECRETS_FILE = defineOption({
  name: 'jwtSecretsFile',
  type: 'string[]',
  flag: '--jwt-secrets-file',
  valueName: '<path>',
  doc: "extra weak-secret dictionaries, one secret per line (SecLists' jwt-secrets works)",
});

/** The issuer's public key, for the checks that attack RS/ES tokens (default: the target's JWKS). */
export const JWT_PUBLIC_KEY_FILE = defineOption({
  name: 'jwtPublicKeyFile',
  type: 'string',
  flag: '--jwt-public-key-file',
  valueName: '<pem>',
  doc: "the token issuer's public key (default: the target's JWKS)",
});

/** An address of this machine the target can reach, for the jku/x5u injection callbacks. */
export const CALLBACK_HOST = defineOption({
  name: 'callbackHost',
  type: 'string',
  flag: '--callback-host',
  valueName: '<host>',
  doc: 'an address of this machine the target can reach, for the injection callbacks',
});
