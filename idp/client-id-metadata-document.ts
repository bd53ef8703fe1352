/**
 * `--enable-client-id-metadata-document`: oidc-provider's Client ID Metadata Document feature (draft-02, the MCP
 * authorization spec's first choice of client registration). A client_id that is an https URL is fetched and its JSON
 * is the client (redirect URIs enforced like any client's); fetches go to loopback hosts (tests) and to the hosts
 * listed, or anywhere with `*`.
 */
import type { Configuration } from 'oidc-provider';
import { isLoopbackHostname } from './outgoing-fetch.js';
import type { IdpConfig } from './settings.js';

type Feature = NonNullable<NonNullable<Configuration['features']>['clientIdMetadataDocument']>;

/** Whether a client ID metadata document may be fetched from this URL's host. */
function metadataDocumentHostAllowed(url: string, hosts: readonly string[]): boolean {
  const { hostname } = new URL(url);
  return isLoopbackHostname(hostname) || hosts.includes('*') || hosts.includes(hostname);
}

export function clientIdMetadataDocument(
  config: Pick<IdpConfig, 'enableClientIdMetadataDocument' | 'clientIdMetadataDocumentHosts'>,
): Feature {
  if (!config.enableClientIdMetadataDocument) return { enabled: false };
  return {
    enabled: true,
    // oidc-provider ships the feature as an experiment and wants the draft it implements acknowledged.
    ack: 'draft-02',
    allowFetch: async (_ctx, clientId) => metadataDocumentHostAllowed(clientId, config.clientIdMetadataDocumentHosts),
  };
}
