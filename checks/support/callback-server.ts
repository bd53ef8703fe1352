/**
 * A short-lived HTTP server the scanner serves its own key material from (jku/x5u attacks): one resource at a random
 * path, counting fetches. Binds 127.0.0.1 unless a callback host is given (then all interfaces, so a remote
 * target can reach it). Closed by the check that started it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CallbackServer {
  url: string;
  fetches(): number;
  close(): Promise<void>;
}

export interface Resource {
  /** Last path segment (`jwks.json`, `cert.pem`). */
  name: string;
  contentType: string;
  body: string;
}

export async function serveResource(resource: Resource, options: { host?: string } = {}): Promise<CallbackServer> {
  const path = `/gatehouse-${randomBytes(8).toString('hex')}/${resource.name}`;
  const { body, contentType } = resource;
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.url !== path) return void res.writeHead(404).end();
    fetches += 1;
    res.writeHead(200, { 'content-type': contentType }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ? '0.0.0.0' : '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}${path}`,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The callback host a check may advertise (`ctx.options.callbackHost`), if the user gave one. */
export function callbackHostOption(options: Readonly<Record<string, unknown>>): string | undefined {
  return typeof options.callbackHost === 'string' && options.callbackHost !== '' ? options.callbackHost : undefined;
}

/** True for hosts that can reach this machine's loopback interface. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}
