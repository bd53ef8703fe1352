/** JWS `alg` values (RFC 7518 §3.1) grouped by key family, and the hash each one uses. */

const HMAC_ALGS = ['HS256', 'HS384', 'HS512'] as const;
export type HmacAlg = (typeof HMAC_ALGS)[number];

export function isHmacAlg(alg: string): alg is HmacAlg {
  return (HMAC_ALGS as readonly string[]).includes(alg);
}

/** `none` in any letter case: RFC 7518 §3.6 names it in lower case, lenient libraries compare case-insensitively. */
export function isNoneAlg(alg: string): boolean {
  return alg.toLowerCase() === 'none';
}

type KeyFamily = 'hmac' | 'rsa' | 'rsa-pss' | 'ec' | 'eddsa';

export interface AlgInfo {
  family: KeyFamily;
  /** Node's digest name (`sha256`); unused for EdDSA. */
  hash: string;
  /** EC curve for ES*, in Node's naming. */
  curve?: 'prime256v1' | 'secp384r1' | 'secp521r1';
}

const TABLE: Record<string, AlgInfo> = {
  HS256: { family: 'hmac', hash: 'sha256' },
  HS384: { family: 'hmac', hash: 'sha384' },
  HS512: { family: 'hmac', hash: 'sha512' },
  RS256: { family: 'rsa', hash: 'sha256' },
  RS384: { family: 'rsa', hash: 'sha384' },
  RS512: { family: 'rsa', hash: 'sha512' },
  PS256: { family: 'rsa-pss', hash: 'sha256' },
  PS384: { family: 'rsa-pss', hash: 'sha384' },
  PS512: { family: 'rsa-pss', hash: 'sha512' },
  ES256: { family: 'ec', hash: 'sha256', curve: 'prime256v1' },
  ES384: { family: 'ec', hash: 'sha384', curve: 'secp384r1' },
  ES512: { family: 'ec', hash: 'sha512', curve: 'secp521r1' },
  EdDSA: { family: 'eddsa', hash: '' },
};

/** What signing with `alg` needs, or undefined for `none` and unknown values. */
export function algInfo(alg: string): AlgInfo | undefined {
  return TABLE[alg];
}
