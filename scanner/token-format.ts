/** Tells a JWT (RFC 7519 compact JWS) from an opaque token: three base64url segments whose header parses with `alg`. */

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

function decodeJson(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

export function isJwt(value: string): boolean {
  if (!JWT_SHAPE.test(value)) return false;
  const [header, payload] = value.split('.');
  const decodedHeader = decodeJson(header!);
  const decodedPayload = decodeJson(payload!);
  return (
    typeof decodedHeader === 'object' && decodedHeader !== null && typeof (decodedHeader as { alg?: unknown }).alg === 'string' &&
    typeof decodedPayload === 'object' && decodedPayload !== null
  );
}
