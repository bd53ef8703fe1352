/** The authenticated caller, the same whatever kind of token it came from (docs/architecture.md §1.2). */
import type {} from 'express-serve-static-core';

export interface Principal {
  /** The token subject (`sub`). */
  sub: string;
  /** The OAuth client the token was issued to (`client_id`), when the token names one. */
  clientId?: string;
  scopes: ReadonlySet<string>;
  tokenKind: 'jwt' | 'opaque';
}

/** The scopes of the public API. */
export const SCOPES = [
  'registrations:read',
  'registrations:write',
  'change_sets:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the authenticate middleware on every /api/v1 request that gets past it. */
    principal?: Principal;
    /** Set by the request-id middleware on every request. */
    requestId: string;
  }
}
