/**
 * What `createIdp` resolves to: where it listens, each issuer's discovery URL, configured client, registration
 * endpoint and testing surface (read live: the provider may be rebuilt or still wait for its database), `ready()`
 * and `close()`.
 */
import type Provider from 'oidc-provider';
import { idpError } from './errors.js';
import type { IssuerInstance } from './issuer-instance.js';
import type { IdpConfig } from './settings.js';
import type { StaticClient } from './static-client.js';
import type { TestingApi } from './testing/testing-api.js';

export interface RunningIssuer {
  issuer: string;
  discoveryUrl: string;
  client: StaticClient;
  registrationEndpoint?: string;
  /** The testing surface (docs/architecture.md §3.4); present with `enableTestingApi`. */
  testing?: TestingApi;
}

export interface RunningIdp extends RunningIssuer {
  /** Where it listens, e.g. http://127.0.0.1:8484 (https://… with TLS). */
  url: string;
  /** With TLS: under --https, the generated CA a client must trust (PEM) and the file it was written to. */
  tls?: { ca?: string; caFile?: string };
  registrationInitialAccessToken?: string;
  provider: Provider;
  /** With `tenants`: each tenant's issuer, client and testing surface (the top-level fields are the first tenant's). */
  tenants?: Record<string, RunningIssuer>;
  /** Resolves once every issuer is built (at once unless the IdP is waiting for its database). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RunningParts {
  config: IdpConfig;
  url: string;
  tls?: RunningIdp['tls'];
  instances: readonly IssuerInstance[];
  testingApi: (instance: IssuerInstance) => TestingApi | undefined;
  isClosed: () => boolean;
  close: () => Promise<void>;
}

const notReady = (what: string) =>
  idpError('not_ready', `${what} is not known yet: the identity provider is waiting for its database (see /readyz)`);

function describe(instance: IssuerInstance, testing: TestingApi | undefined): RunningIssuer {
  return {
    issuer: instance.issuer,
    discoveryUrl: `${instance.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
    get client() {
      if (!instance.built) throw notReady('the configured client');
      return instance.built.client;
    },
    get registrationEndpoint() {
      return instance.built?.registrationEndpoint;
    },
    testing,
  };
}

export function runningIdp(parts: RunningParts): RunningIdp {
  const { config, instances } = parts;
  const [first] = instances;
  return Object.defineProperties(describe(first, parts.testingApi(first)) as RunningIdp, {
    url: { value: parts.url, enumerable: true },
    tls: { value: parts.tls, enumerable: true },
    registrationInitialAccessToken: {
      get: () => (first.built?.registrationEndpoint ? config.registrationInitialAccessToken : undefined),
      enumerable: true,
    },
    provider: {
      get: () => {
        if (!first.built) throw notReady('the provider');
        return first.built.provider;
      },
    },
    tenants: {
      value: config.tenants.length
        ? Object.fromEntries(config.tenants.map((t, i) => [t, describe(instances[i], parts.testingApi(instances[i]))]))
        : undefined,
      enumerable: true,
    },
    ready: {
      value: () =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (parts.isClosed())
              return reject(idpError('closed', 'the identity provider was closed before it was ready'));
            if (instances.every((i) => i.status === 'ready')) return resolve();
            setTimeout(check, 50);
          };
          check();
        }),
    },
    close: { value: parts.close },
  });
}
