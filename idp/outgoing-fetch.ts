/**
 * Outgoing requests (back-channel logout, client jwks_uri, client ID metadata documents). oidc-provider refuses
 * loopback and private addresses through an SSRF-guarding dispatcher; a development IdP's relying parties live exactly
 * there (127.0.0.1, docker networks), so the guard is dropped deliberately (idp/README.md says so). Never expose this IdP
 * publicly. An https request to a loopback host does not verify the certificate: a client under test serves its
 * metadata document on 127.0.0.1 with a certificate of its own making, and nothing can intercept loopback.
 */
import { httpsFetch } from './tls/https-fetch.js';

export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function outgoingFetch(
  url: URL | string,
  options: RequestInit & { dispatcher?: unknown },
): Promise<Response> {
  delete options.dispatcher;
  const target = new URL(url);
  if (target.protocol === 'https:' && isLoopbackHostname(target.hostname))
    return httpsFetch(target, options, { rejectUnauthorized: false });
  return fetch(url, options);
}
