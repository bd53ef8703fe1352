/**
 * Re-signing helpers for JWT attacks. Every helper signs a given signing input (RFC 7515 §5.1), so callers decide
 * which bytes to keep: the original segments (null signature, blank secret) or a new header (alg none, kid injection).
 */
import { createHmac, generateKeyPair, randomBytes, sign as cryptoSign, constants, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { algInfo, isHmacAlg, type HmacAlg } from './algorithms.js';
import { encodeSegment, type UnverifiedJwt } from '../../../scanner/api.js';

/** HMAC signature over `signingInput` (RFC 7518 §3.2), base64url. */
export function hmacSignature(alg: HmacAlg, key: string | Buffer, signingInput: string): string {
  const hash = alg === 'HS256' ? 'sha256' : alg === 'HS384' ? 'sha384' : 'sha512';
  return createHmac(hash, key).update(signingInput).digest('base64url');
}

/** A compact JWS from a header object and a payload segment, HMAC-signed with `key`. */
export function hmacToken(header: Record<string, unknown>, payloadSegment: string, key: string | Buffer): string {
  const alg = String(header.alg);
  if (!isHmacAlg(alg)) throw new TypeError(`hmacToken needs an HS* alg, got ${alg}`);
  const signingInput = `${encodeSegment(header)}.${payloadSegment}`;
  return `${signingInput}.${hmacSignature(alg, key, signingInput)}`;
}

/** An unsigned token (`h.p.`): the JWS Compact Serialization of an Unsecured JWS (RFC 7515 §A.5). */
export function unsignedToken(header: Record<string, unknown>, payloadSegment: string): string {
  return `${encodeSegment(header)}.${payloadSegment}.`;
}

const generate = promisify(generateKeyPair);

const keys = new Map<string, Promise<KeyObject>>();

/**
 * A random private key for `alg`'s family, generated off the event loop once per process and alg (RSA-2048 takes
 * tens of milliseconds; no server can know it either way).
 */
function randomPrivateKey(alg: string): Promise<KeyObject> {
  let key = keys.get(alg);
  if (!key) {
    key = generatePrivateKey(alg);
    keys.set(alg, key);
    key.catch(() => keys.delete(alg));
  }
  return key;
}

async function generatePrivateKey(alg: string): Promise<KeyObject> {
  const info = algInfo(alg);
  if (!info) throw new TypeError(`no key type for alg ${alg}`);
  switch (info.family) {
    case 'rsa':
    case 'rsa-pss':
      return (await generate('rsa', { modulusLength: 2048 })).privateKey;
    case 'ec':
      return (await generate('ec', { namedCurve: info.curve! })).privateKey;
    case 'eddsa':
      return (await generate('ed25519', {})).privateKey;
    case 'hmac':
      throw new TypeError('HMAC keys are secrets, not key pairs');
  }
}

/**
 * Signs `signingInput` with a random key of the family `alg` names: a signature that is well-formed for the
 * algorithm but made with a key the server cannot know. Returns base64url. Throws for `none` and unknown algs.
 */
export async function randomKeySignature(alg: string, signingInput: string): Promise<string> {
  const info = algInfo(alg);
  if (!info) throw new TypeError(`cannot sign with alg ${alg || '(missing)'}`);
  if (info.family === 'hmac') return hmacSignature(alg as HmacAlg, randomBytes(64), signingInput);
  const key = await randomPrivateKey(alg);
  const data = Buffer.from(signingInput);
  if (info.family === 'eddsa') return cryptoSign(null, data, key).toString('base64url');
  if (info.family === 'rsa-pss') {
    return cryptoSign(info.hash, data, {
      key,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
    }).toString('base64url');
  }
  // JWS ECDSA signatures are the raw R||S concatenation (RFC 7518 §3.4), not DER.
  if (info.family === 'ec')
    return cryptoSign(info.hash, data, { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return cryptoSign(info.hash, data, key).toString('base64url');
}

/**
 * The original claims with `exp` moved to now+5 min when it is past and `nbf` to now when it is in the future, so a
 * rejection means "bad signature", not "expired". Returns the original payload segment unchanged when nothing moved.
 */
export function freshPayloadSegment(jwt: UnverifiedJwt, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const claims = jwt.claims;
  if (!claims) return jwt.payloadSegment;
  let changed = false;
  const next: Record<string, unknown> = { ...claims };
  if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) {
    next.exp = nowSeconds + 300;
    changed = true;
  }
  if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds) {
    next.nbf = nowSeconds;
    changed = true;
  }
  return changed ? encodeSegment(next) : jwt.payloadSegment;
}
