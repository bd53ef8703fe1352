/**
 * `fetch` over node:https with TLS options global fetch does not take: a certificate authority to trust (a client of
 * `--https` trusting the generated CA) or, for loopback only, no verification (outgoing-fetch.ts). node:https is
 * loaded when first needed, so runtimes without it (the edge worker) never import it.
 */
export interface HttpsOptions {
  /** PEM of the certificate authorities to trust instead of the system's. */
  ca?: string;
  rejectUnauthorized?: boolean;
}

export async function httpsFetch(url: URL | string, init: RequestInit = {}, tls: HttpsOptions = {}): Promise<Response> {
  const { request } = await import('node:https');
  const { Readable } = await import('node:stream');
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  const body =
    init.body === undefined || init.body === null ? undefined : String(init.body as string | URLSearchParams);
  const method = init.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const req = request(new URL(url), { method, headers, ...tls }, (res) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, v);
      }
      const status = res.statusCode ?? 502;
      const empty = status === 204 || status === 304 || method === 'HEAD';
      if (empty) res.resume();
      resolve(
        new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: answer }),
      );
    });
    init.signal?.addEventListener('abort', () => req.destroy(init.signal!.reason as Error));
    req.on('error', reject);
    req.end(body);
  });
}
