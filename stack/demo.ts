/**
 * The demo wiring of `npm start`: fixed ports, the demo client, the demo organization and grants. One place,
 * so the start-up text, `npm run token`, `npm run scan:self` and the end-to-end test agree.
 */
export const DEMO = Object.freeze({
  idpPort: 8484,
  servicePort: 3000,
  host: '127.0.0.1',
  clientId: 'gatehouse-demo',
  clientSecret: 'gatehouse-demo-secret',
  /** Never served: `npm run token` reads the code from the redirect's Location header. */
  redirectUri: 'http://127.0.0.1:8400/callback',
  user: 'alice',
  /** A reviewer: asks for gatehouse:review / gatehouse:admin tokens for the internal surface. */
  reviewer: 'rita',
  internalPort: 3001,
  /** The review console's own client at the IdP (authorization code, redirect to <internal>/console/callback). */
  consoleClientId: 'gatehouse-console',
  consoleClientSecret: 'gatehouse-console-secret',
  reviewerScopes: ['gatehouse:review', 'gatehouse:admin'],
  /** The IdP's RFC 7591 initial access token, used by the service to provision approved clients. */
  registrationInitialAccessToken: 'gatehouse-demo-initial-access-token',
  /** A second identity for BOLA checks: its grant is for another organization. */
  otherUser: 'bob',
  organizationId: 'org_demo1234567890abcd',
  /** `npm run scan:self` scans as sam in an organization of its own on the enterprise plan, so its rate limit
   * (6000 a minute) never throttles a scan, even two in a row; the scan's data stays out of alice's organization. */
  selfScanUser: 'sam',
  selfScanOrganizationId: 'org_selfscan1234567890',
  otherOrganizationId: 'org_other1234567890abc',
  scopes: ['registrations:read', 'registrations:write', 'change_sets:write'],
});

export function serviceUrl(port: number = DEMO.servicePort, host: string = DEMO.host): string {
  return `http://${host}:${port}`;
}

/** The audience when the service listens on a port chosen at start (tests). */
export const PORTLESS_AUDIENCE = 'urn:gatehouse:registration-api:v1';

/** The internal (reviewer/admin) surface's audience when its port is chosen at start. */
export const PORTLESS_INTERNAL_AUDIENCE = 'urn:gatehouse:internal:v1';

export function internalAudienceFor(internalBaseUrl: string): string {
  return `${internalBaseUrl}/internal`;
}

export function audienceFor(serviceBaseUrl: string): string {
  return `${serviceBaseUrl}/api/v1`;
}

/** The seed of the demo: the organization on the pro plan, alice (default org), the demo client's machine identity, bob's and sam's organizations. */
export function demoSeed() {
  return {
    organizations: [
      { id: DEMO.organizationId, name: 'Demo', plan: 'pro' as const },
      { id: DEMO.otherOrganizationId, name: 'Other', plan: 'free' as const },
      { id: DEMO.selfScanOrganizationId, name: 'Self-scan', plan: 'enterprise' as const },
    ],
    grants: [
      { organizationId: DEMO.organizationId, subject: DEMO.user, default: true },
      // Client-credentials tokens carry the client id as `sub` (RFC 9068 §2.2).
      { organizationId: DEMO.organizationId, subject: DEMO.clientId, default: true },
      { organizationId: DEMO.otherOrganizationId, subject: DEMO.otherUser, default: true },
      { organizationId: DEMO.selfScanOrganizationId, subject: DEMO.selfScanUser, default: true },
    ],
  };
}
