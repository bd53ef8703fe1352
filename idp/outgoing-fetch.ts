/**
 * Outgoing requests (back-channel logout, client jwks_uri, client ID metadata documents). oidc-provider refuses
 * loopback and private addresses through an SSRF-guarding dispatcher; a development IdP's relying parties live exactly
 * there (127.0.0.1, docker networks), so the guard is dropped deliberately (research §10). Never expose this IdP
 * publicly. An https request to a loopback host does not verify the certificate: a client under test serves its
 * metadata document on 127.0.0.1 with a certificate of its own making, and nothing can intercept loopback.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A GET or POST to a loopback https URL, certificate unchecked (node:https; loaded only when needed). */
async function loopbackHttps(url: URL, options: RequestInit): Promise<Response> {
  const { request } = await import('node:https');
  const { Readable } = await import('node:stream');
  const headers = Object.fromEntries(new Headers(options.headers).entries());
  const body =
    typeof options.body === 'string' || options.body instanceof URLSearchParams ? String(options.body) : undefined;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers, rejectUnauthorized: false }, (res) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, v);
      }
      const status = res.statusCode ?? 502;
      const nobody = status === 204 || status === 304 || options.method === 'HEAD';
      if (nobody) res.resume();
      resolve(
        new Response(nobody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: answer }),
      );
    });
    options.signal?.addEventListener('abort', () => req.destroy(options.signal!.reason as Error));
    req.on('error', reject);
    req.end(body);
  });
}

export async function outgoingFetch(
  url: URL | string,
  options: RequestInit & { dispatcher?: unknown },
): Promise<Response> {
  delete options.dispatcher;
  const target = new URL(url);
  if (target.protocol === 'https:' && isLoopbackHostname(target.hostname)) return loopbackHttps(target, options);
  return fetch(url, options);
}
