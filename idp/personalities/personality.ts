/**
 * A provider personality (`--personality`, docs/architecture.md §3.5): the issuer form and the claim names and shapes
 * of a real provider, so a relying party tested against the stub meets what production sends. Each provider is one
 * file beside this one, with the public documentation it follows named in its header.
 */
import { createHash } from 'node:crypto';
import type { IdpUser } from '../accounts.js';

interface TokenSubject {
  /** The user, or undefined for a client's own token (client credentials). */
  user?: IdpUser;
  clientId: string;
  /** The scopes granted to the token. */
  scopes: readonly string[];
  issuer: string;
}

export interface Personality {
  name: string;
  /** The issuer's path below the listener's root (`/realms/gatehouse`); `tenant` under `--tenants`. */
  issuerPath(tenant: string | undefined, root: string): string;
  /** The issuer ends with a slash (Auth0's `https://tenant.auth0.com/`). */
  trailingSlash?: boolean;
  /** `audience` at /auth and /token names the API a token is for (RFC 8707's `resource` here). */
  audienceParameter?: boolean;
  /** The names `idTokenClaims` may return (released with `openid`, so they reach ID tokens). */
  idTokenClaimNames(issuer: string): string[];
  idTokenClaims(subject: TokenSubject & { user: IdpUser }): Record<string, unknown>;
  accessTokenClaims(subject: TokenSubject): Record<string, unknown>;
}

/** Scopes of OpenID Connect itself (not an API's permissions). */
const IDENTITY_SCOPES = new Set(['openid', 'offline_access', 'profile', 'email', 'phone', 'address']);

export const apiScopes = (scopes: readonly string[]) => scopes.filter((s) => !IDENTITY_SCOPES.has(s));

/** A UUID that is always the same for the same text (Entra's tenant and object ids are GUIDs). */
export function stableUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A list claim of the user (`roles`, `groups`), or undefined when the user has none. */
export function listOf(user: IdpUser | undefined, claim: 'roles' | 'groups'): string[] | undefined {
  const value = user?.[claim];
  return Array.isArray(value) && value.length ? (value as string[]) : undefined;
}

/** The object without its undefined members (claims absent rather than null). */
export function defined(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
}
