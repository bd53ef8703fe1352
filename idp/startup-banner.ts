/** What the CLI prints on stdout once it serves: where it is, the configured client, registration, storage, users. */
import type { RunningIdp } from './create-idp.js';

export function startupBanner(idp: RunningIdp, extra: { storage: string; users: string[]; skipPrompt: boolean }): string {
  const { client } = idp;
  const rows: [string, string][] = [
    ['Issuer', idp.issuer],
    ['Discovery', idp.discoveryUrl],
    ['Client ID', client.clientId],
    ['Client secret', client.clientSecret ?? 'none (public client, PKCE required)'],
    ['Redirect URIs', client.redirectUris.join(' ') || 'none (client_credentials only)'],
  ];
  if (client.postLogoutRedirectUris.length) rows.push(['Post-logout URI', client.postLogoutRedirectUris.join(' ')]);
  if (idp.registrationEndpoint) {
    rows.push(['Registration URL', idp.registrationEndpoint]);
    rows.push(['Initial access token', idp.registrationInitialAccessToken ?? 'none (open registration)']);
  }
  rows.push(['Users', extra.users.join(', ')]);
  rows.push(['Login', extra.skipPrompt ? 'automatic (--skip-prompt; login_hint picks the user)' : 'login page']);
  rows.push(['Storage', extra.storage]);
  const width = Math.max(...rows.map(([k]) => k.length)) + 1;
  return [`Stub identity provider listening on ${idp.url}`, ...rows.map(([k, v]) => `  ${`${k}:`.padEnd(width)} ${v}`)].join('\n') + '\n';
}
