/**
 * The scanner's one JWT-shape detector: splits a compact JWS (RFC 7515 §7.1) without verifying it, keeping the raw
 * segments (attacks and the weak-secret search work on the original `header.payload` bytes, never on a re-encoded
 * copy: re-encoding changes key order). `isJwt` decides `Credential.format`; checks parse with the same function
 * (re-exported by `api.ts`), so "the scanner called it a JWT" and "a check can parse it" never disagree.
 */

export interface UnverifiedJwt {
  /** The token as given. */
  raw: string;
  headerSegment: string;
  payloadSegment: string;
  signatureSegment: string;
  /** `headerSegment + '.' + payloadSegment`: the JWS signing input (RFC 7515 §5.1). */
  signingInput: string;
  header: Record<string, unknown>;
  /** Decoded claims, keys in their original order; `undefined` when the payload is not a JSON object. */
  claims?: Record<string, unknown>;
  /** The `alg` header parameter, as written (`none`, `HS256`, …); empty when absent. */
  alg: string;
}

export type ParseResult = { ok: true; jwt: UnverifiedJwt } | { ok: false; reason: string };

const SEGMENT = /^[A-Za-z0-9_-]*$/;

function decodeJsonObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a compact JWS; a JWE (5 segments) or anything else is refused with a reason. */
export function parseUnverified(token: string): ParseResult {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return { ok: false, reason: `a compact JWS has 3 segments, this value has ${parts.length}` };
  const [headerSegment, payloadSegment, signatureSegment] = parts as [string, string, string];
  if (![headerSegment, payloadSegment, signatureSegment].every((s) => SEGMENT.test(s))) {
    return { ok: false, reason: 'a segment is not base64url' };
  }
  const header = decodeJsonObject(headerSegment);
  if (!header) return { ok: false, reason: 'the header is not a base64url JSON object' };
  const alg = typeof header.alg === 'string' ? header.alg : '';
  return {
    ok: true,
    jwt: {
      raw: token.trim(),
      headerSegment,
      payloadSegment,
      signatureSegment,
      signingInput: `${headerSegment}.${payloadSegment}`,
      header,
      claims: decodeJsonObject(payloadSegment),
      alg,
    },
  };
}

/** base64url of the compact JSON of a value (RFC 7515 §2: BASE64URL(UTF8(JSON))). */
export function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/**
 * Tells a JWT (RFC 7519: a compact JWS whose header has `alg` and whose payload is a JSON object) from an opaque
 * token. Whitespace anywhere means the value is not one token.
 */
export function isJwt(value: string): boolean {
  if (/\s/.test(value)) return false;
  const parsed = parseUnverified(value);
  return parsed.ok && typeof parsed.jwt.header.alg === 'string' && parsed.jwt.claims !== undefined;
}
