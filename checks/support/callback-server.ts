/**
 * A short-lived HTTP server the scanner serves its own key material from (jku/x5u attacks, an issuer's discovery
 * document and key set): resources under a random path, counting fetches. Binds 127.0.0.1 unless a callback host is given (then all interfaces, so a remote
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

/** Several resources under one random base path (an issuer: its discovery document and its key set). */
export interface CallbackSite {
  /** `http://host:port/gatehouse-<random>` (no trailing slash). */
  base: string;
  /** Fetches of every resource together, or of the one at `name`. */
  fetches(name?: string): number;
  close(): Promise<void>;
}

export interface Resource {
  /** Path under the random base (`jwks.json`, `cert.pem`, `.well-known/openid-configuration`). */
  name: string;
  contentType: string;
  body: string;
}

/** Serves `resources` under a random base path; `body` may be a function of the base URL (documents naming it). */
export async function serveResources(
  resources: (Omit<Resource, 'body'> & { body: string | ((base: string) => string) })[],
  options: { host?: string } = {},
): Promise<CallbackSite> {
  const prefix = `/gatehouse-${randomBytes(8).toString('hex')}`;
  const counts = new Map<string, number>();
  let base = '';
  const server = createServer((req, res) => {
    const resource = resources.find((r) => req.url === `${prefix}/${r.name}`);
    if (!resource) return void res.writeHead(404).end();
    counts.set(resource.name, (counts.get(resource.name) ?? 0) + 1);
    res
      .writeHead(200, { 'content-type': resource.contentType })
      .end(typeof resource.body === 'function' ? resource.body(base) : resource.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ? '0.0.0.0' : '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  base = `http://${options.host ?? '127.0.0.1'}:${port}${prefix}`;
  return {
    base,
    fetches: (name) => (name === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(name) ?? 0)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function serveResource(resource: Resource, options: { host?: string } = {}): Promise<CallbackServer> {
  const site = await serveResources([resource], options);
  return { url: `${site.base}/${resource.name}`, fetches: () => site.fetches(), close: () => site.close() };
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

/** A request the target made to a callback listener. */
interface CallbackHit {
  /** The tag of the URL that was fetched (which input it was given to). */
  tag: string;
  method: string;
  path: string;
  userAgent?: string;
}

export interface CallbackListener {
  /** A URL unique to this listener and `tag` (`http://host:port/gatehouse-<random>/<tag>`). */
  urlFor(tag: string): string;
  hits(): CallbackHit[];
  /**
   * Resolves once a hit matches (true), or after `ms` or when `signal` aborts (false, unless one came). Checks await it
   * through `ctx.idle`: waiting on the target holds no `--concurrency` slot.
   */
  waitFor(match: (hit: CallbackHit) => boolean, ms: number, signal: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}

/** Like `serveResource`, but records every request under its random prefix (ssrf.url_parameter: who fetched which URL). */
export async function listenForCallbacks(options: { host?: string } = {}): Promise<CallbackListener> {
  const prefix = `/gatehouse-${randomBytes(8).toString('hex')}/`;
  const hits: CallbackHit[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (!path.startsWith(prefix)) return void res.writeHead(404).end();
    const tag = decodeURIComponent(path.slice(prefix.length).split(/[/?#]/)[0] ?? '');
    hits.push({
      tag,
      method: req.method ?? 'GET',
      path,
      ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
    });
    res.writeHead(200, { 'content-type': 'text/plain' }).end('gatehouse callback');
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ? '0.0.0.0' : '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (tag) => `http://${options.host ?? '127.0.0.1'}:${port}${prefix}${encodeURIComponent(tag)}`,
    hits: () => [...hits],
    waitFor: (match, ms, signal) =>
      new Promise<boolean>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
          signal.removeEventListener('abort', done);
          resolve(hits.some(match));
        };
        const check = (): void => {
          if (hits.some(match)) done();
        };
        const timer = setTimeout(done, ms);
        waiters.add(check);
        signal.addEventListener('abort', done, { once: true });
        if (signal.aborted) done();
        else check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
