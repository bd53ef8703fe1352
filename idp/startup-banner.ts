/** What the CLI prints on stdout once it serves: where it is, the configured client, registration, storage, users. */
import { createAccountDirectory } from './accounts.js';
import type { RunningIdp } from './running-idp.js';
import type { IdpConfig } from './settings.js';

export function startupBanner(idp: RunningIdp, config: IdpConfig): string {
  let client: RunningIdp['client'] | undefined;
  try {
    client = idp.client;
  } catch {
    client = undefined; // waiting for the database: the client lives there
  }
  const tenants = idp.tenants ? Object.entries(idp.tenants) : [];
  const rows: [string, string][] = tenants.length
    ? tenants.map(([name, t]) => [`Tenant ${name}`, t.discoveryUrl])
    : [
        ['Issuer', idp.issuer],
        ['Discovery', idp.discoveryUrl],
      ];
  if (!client) rows.push(['Status', 'waiting for the database (/readyz answers 503 until it does)']);
  else {
    rows.push(['Client ID', client.clientId]);
    rows.push(['Client secret', client.clientSecret ?? 'none (public client, PKCE required)']);
    rows.push(['Redirect URIs', client.redirectUris.join(' ') || 'none (client_credentials only)']);
    if (client.postLogoutRedirectUris.length) rows.push(['Post-logout URI', client.postLogoutRedirectUris.join(' ')]);
  }
  if (idp.registrationEndpoint) {
    rows.push(['Registration URL', idp.registrationEndpoint]);
    rows.push(['Initial access token', idp.registrationInitialAccessToken ?? 'none (open registration)']);
  }
  rows.push([
    'Users',
    createAccountDirectory(config.users, config.defaultUser)
      .users.map((u) => u.sub)
      .join(', '),
  ]);
  rows.push(['Login', config.skipPrompt ? 'automatic (--skip-prompt; login_hint picks the user)' : 'login page']);
  if (idp.tls?.caFile) rows.push(['TLS CA', `${idp.tls.caFile} (trust it: NODE_EXTRA_CA_CERTS, curl --cacert)`]);
  rows.push(['Storage', config.databaseUrl ? 'MongoDB' : 'memory (lost on exit)']);
  if (config.enableTestingApi)
    rows.push([
      'Testing API',
      tenants.length
        ? tenants.map(([name]) => `${idp.url}/${name}/_testing/`).join(' ')
        : `${idp.url}/_testing/ (and ${idp.url}/_debugger)`,
    ]);
  const width = Math.max(...rows.map(([k]) => k.length)) + 1;
  return (
    [`Stub identity provider listening on ${idp.url}`, ...rows.map(([k, v]) => `  ${`${k}:`.padEnd(width)} ${v}`)].join(
      '\n',
    ) + '\n'
  );
}
