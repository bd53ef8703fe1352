/**
 * Outgoing requests (back-channel logout, client jwks_uri). oidc-provider refuses loopback and private
 * addresses through an SSRF-guarding dispatcher; a development IdP's relying parties live exactly there
 * (127.0.0.1, docker networks), so the guard is dropped deliberately (research §10). Never expose this IdP publicly.
 */
export async function outgoingFetch(
  url: URL | string,
  options: RequestInit & { dispatcher?: unknown },
): Promise<Response> {
  delete options.dispatcher;
  return fetch(url, options);
}
