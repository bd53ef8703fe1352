/**
 * Tokens signed by a key the scanner just made (RS256): the original claims (exp/nbf refreshed) under the original
 * header minus any key-locating parameter, plus the ones the attack names (jwk, jku, x5c, x5u, kid).
 */
import { createPublicKey, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { encodeSegment, type UnverifiedJwt } from '../../scanner/api.js';
import { freshPayloadSegment } from './jwt/sign.js';

const generate = promisify(generateKeyPair);

export interface ScannerKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

let shared: Promise<ScannerKey> | undefined;

/**
 * The scanner's throwaway RSA-2048 key: made once per process (the server cannot know it either way) so that scans of
 * many operations do not spend their time generating keys.
 */
export function newScannerKey(): Promise<ScannerKey> {
  shared ??= generate('rsa', { modulusLength: 2048 }).then(({ privateKey }) => ({
    privateKey,
    publicKey: createPublicKey(privateKey),
    kid: `gatehouse-${randomBytes(6).toString('hex')}`,
  }));
  return shared;
}

/** RFC 7515 §4.1.2–4.1.6: the header parameters that tell a verifier where the key is. */
const KEY_LOCATORS = ['jwk', 'jku', 'x5c', 'x5u', 'x5t', 'x5t#S256'];

/** `claims` (optional) are set over the original ones, e.g. an `iss` that names the scanner's own issuer. */
export function forgedRsaToken(
  jwt: UnverifiedJwt,
  key: ScannerKey,
  locator: Record<string, unknown>,
  claims?: Record<string, unknown>,
): string {
  const kept = Object.fromEntries(Object.entries(jwt.header).filter(([name]) => !KEY_LOCATORS.includes(name)));
  let payload = freshPayloadSegment(jwt);
  if (claims)
    payload = encodeSegment({
      ...(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>),
      ...claims,
    });
  const signingInput = `${encodeSegment({ ...kept, alg: 'RS256', kid: key.kid, ...locator })}.${payload}`;
  return `${signingInput}.${sign('sha256', Buffer.from(signingInput), key.privateKey).toString('base64url')}`;
}
