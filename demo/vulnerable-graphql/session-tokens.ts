/**
 * The GraphQL demo's session tokens: HS256 JWTs (`sub` the user id, one hour) signed with a random secret made at
 * start. Bearer headers carrying one are verified strictly in both twins; `query.session(token:)` reads the token it
 * is given with the vulnerable twin's verifier, which takes an unsigned token (`alg: none`) at its word — the
 * classic library misuse (OWASP API2:2023) — where the secure twin accepts HS256 signed with its secret only.
 */
import { randomBytes } from 'node:crypto';
import jsonwebtoken, { type JwtPayload } from 'jsonwebtoken';

export interface SessionTokens {
  /** A fresh session token for the user. */
  issue(userId: string): string;
  /** The user id of a session token the Bearer header carries (strict: HS256 with the secret), else undefined. */
  userIdOf(token: string): string | undefined;
  /** The claims of a token given as an argument, as this twin's `session` verifier reads it, else undefined. */
  argumentClaims(token: string): JwtPayload | undefined;
}

export function createSessionTokens(secure: boolean): SessionTokens {
  const secret = randomBytes(32);
  const strict = (token: string): JwtPayload | undefined => {
    try {
      const claims = jsonwebtoken.verify(token, secret, { algorithms: ['HS256'] });
      return typeof claims === 'object' ? claims : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    issue: (userId) => jsonwebtoken.sign({ sub: userId }, secret, { algorithm: 'HS256', expiresIn: '1h' }),
    userIdOf: (token) => strict(token)?.sub,
    argumentClaims(token) {
      if (secure) return strict(token);
      const decoded = jsonwebtoken.decode(token, { complete: true });
      // An unsigned token is believed as it stands; any other goes through the strict check.
      if (decoded && String(decoded.header.alg).toLowerCase() === 'none' && typeof decoded.payload === 'object')
        return decoded.payload;
      return strict(token);
    },
  };
}
