/**
 * Demo registrations in the states a newcomer meets first — a draft, one pending review, one active with a pending
 * change set — made through the public API and the reviewer surface like any user would (so the active one is a
 * real client at the IdP). Skipped when the organization already has them (a MongoDB-backed demo restarted).
 */
import { DEMO } from './demo.js';
import type { StackUrls } from './stack-urls.js';
import { userToken } from './tokens.js';

export const DEMO_REGISTRATIONS = {
  draft: 'Team wiki',
  pending: 'Support portal',
  active: 'Partner dashboard',
} as const;

async function call(
  method: string,
  url: string,
  token: string,
  body?: unknown,
): Promise<{ id: string; name?: string }> {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { id: string };
}

export async function seedDemoRegistrations(urls: StackUrls): Promise<void> {
  const request = {
    issuer: urls.idp,
    clientId: DEMO.clientId,
    clientSecret: DEMO.clientSecret,
    redirectUri: DEMO.redirectUri,
  };
  const [alice, rita] = await Promise.all([
    userToken({ ...request, scope: DEMO.scopes.join(' '), resource: urls.audience, loginHint: DEMO.user }),
    userToken({
      ...request,
      scope: DEMO.reviewerScopes.join(' '),
      resource: urls.internalAudience,
      loginHint: DEMO.reviewer,
    }),
  ]);
  const org = `${urls.service}/api/v1/organizations/${DEMO.organizationId}`;
  const existing = (await call('GET', `${org}/registrations?limit=100`, alice)) as unknown as {
    data: { name: string }[];
  };
  if (existing.data.some((r) => r.name === DEMO_REGISTRATIONS.active)) return;

  const create = (name: string, host: string) =>
    call('POST', `${org}/registrations`, alice, {
      name,
      templateId: 'tpl_web',
      config: { redirectUris: [`https://${host}.example.com/cb`] },
    });
  await create(DEMO_REGISTRATIONS.draft, 'wiki');
  const pending = await create(DEMO_REGISTRATIONS.pending, 'support');
  await call('POST', `${org}/registrations/${pending.id}/actions/submit`, alice);
  const active = await create(DEMO_REGISTRATIONS.active, 'partners');
  await call('POST', `${org}/registrations/${active.id}/actions/submit`, alice);
  await call(
    'POST',
    `${urls.internal}/internal/v1/organizations/${DEMO.organizationId}/registrations/${active.id}/actions/approve`,
    rita,
    {
      reason: 'demo data',
    },
  );
  await call('POST', `${org}/registrations/${active.id}/change-sets`, alice, {
    changes: { redirectUris: ['https://partners.example.com/cb', 'https://partners.example.com/cb2'] },
  });
}
