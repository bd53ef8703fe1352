/** The parts of the OpenAPI document no route carries: what the API is, where it is served, how callers authenticate. */
import { SCOPES } from '../principal.js';

export const INFO = {
  title: 'Gatehouse registration service — public API',
  version: '1.0.0',
  description:
    "Self-service management of OAuth 2.0 client registrations. Every resource lives under an organization; the token names the subject and scopes, never the organization. With `API_DEFAULT_ORGANIZATION_ENABLED=true`, every `/organizations/{organizationId}/…` path also exists without that prefix and acts on the subject's default organization (404 `default_organization_not_set` when there is none). Reviewer/admin actions have no route on this API. Every non-2xx response has the `Error` body; `X-Request-Id` is on every response.",
  license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
};

/** Every path of the document is below this. */
export const API_BASE_PATH = '/api/v1';

/** What each scope of principal.ts grants (the security scheme's description lists them all). */
const SCOPE_DOCS: Record<(typeof SCOPES)[number], string> = {
  'registrations:read': 'reads',
  'registrations:write': 'create, edit, delete, submit, withdraw; reveal, rotate and retire client secrets',
  'change_sets:write': 'propose and withdraw change sets',
  'webhooks:read': "read the organization's webhooks and their deliveries",
  'webhooks:write': 'create, edit and delete webhooks, redeliver',
};

export const SECURITY_SCHEME_NAME = 'bearerAuth';

export const SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT or opaque',
  description: `An access token from the configured authorization server: an RFC 9068 JWT (\`typ: at+jwt\`) or an opaque token validated by RFC 7662 introspection. What a caller may do also depends on its role in the organization (viewer, developer, owner; see the capabilities record). Scopes: ${SCOPES.map((scope) => `\`${scope}\` (${SCOPE_DOCS[scope]})`).join(', ')}.`,
};
