/**
 * The programmatic API: `createIdp(options)` starts the stub IdP on `options.port` (0 in tests) and resolves
 * to `{ url, issuer, close, … }` once it serves. Used by our tests and usable by anyone's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';
import { buildIdp, openStore } from './app.js';
import type { IdpOptions } from './options.js';
import type { StaticClient } from './static-client.js';

export interface RunningIdp {
  /** Where it listens, e.g. http://127.0.0.1:8484. */
  url: string;
  issuer: string;
  discoveryUrl: string;
  client: StaticClient;
  registrationEndpoint?: string;
  registrationInitialAccessToken?: string;
  provider: Provider;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function createIdp(options: IdpOptions = {}): Promise<RunningIdp> {
  const host = options.host ?? '127.0.0.1';
  const store = await openStore(options);
  const server = createServer();
  try {
    // Listen first: with port 0 the default issuer needs the port actually bound.
    await listen(server, options.port ?? 8484, host);
    const { port } = server.address() as AddressInfo;
    const url = `http://${hostForUrl(host)}:${port}`;
    const built = await buildIdp({ ...options, issuer: options.issuer ?? url }, store);
    server.on('request', built.app);
    return {
      url,
      issuer: built.issuer,
      discoveryUrl: `${built.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      client: built.client,
      registrationEndpoint: built.registrationEndpoint,
      registrationInitialAccessToken: built.registrationEndpoint ? options.registrationInitialAccessToken : undefined,
      provider: built.provider,
      async close() {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (!options.store) await store.close();
      },
    };
  } catch (error) {
    server.close();
    if (!options.store) await store.close();
    throw error;
  }
}
