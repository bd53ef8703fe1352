/**
 * The request listener of the IdP's port: `/healthz` and `/readyz` at the root for the whole listener (oidc = every
 * issuer built, db = the first store answers), then the issuer the path names (`/{tenant}/…` with tenants). While
 * `gate` is set (port 0 without an issuer, between the port opening and the provider built) requests wait for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { IdpStore } from './adapters/store.js';
import { idpError } from './errors.js';
import { healthRouter } from './health.js';
import type { IssuerInstance } from './issuer-instance.js';

export interface Listener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Requests wait for this promise while it is set. */
  gate: Promise<void> | undefined;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export function createListener(instances: () => readonly IssuerInstance[], store: IdpStore): Listener {
  const health = express();
  health.disable('x-powered-by');
  const checks: Record<string, () => Promise<void>> = {
    oidc: async () => {
      const notReady = instances().find((i) => i.status !== 'ready');
      if (notReady)
        throw idpError('not_ready', notReady.status === 'waiting' ? 'waiting for the database' : 'starting');
    },
  };
  if (store.ping) checks.db = store.ping;
  health.use(healthRouter(checks));

  const route = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const cut = url.indexOf('?');
    const path = cut < 0 ? url : url.slice(0, cut);
    if (path === '/healthz' || path === '/readyz') return void health(req as never, res as never);
    let instance = instances()[0];
    if (instances().some((i) => i.mountPath)) {
      // Each issuer serves below its path (`/{tenant}`, a personality's `/realms/…`): the longest that matches.
      instance = instances()
        .filter((i) => path === i.mountPath || path.startsWith(`${i.mountPath}/`))
        .sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
      if (!instance) {
        const list = instances()
          .map((i) => i.mountPath)
          .join(', ');
        return json(res, 404, { error: 'not_found', error_description: `no issuer here; issuers below: ${list}` });
      }
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
      req.url = url.slice(instance.mountPath.length) || '/';
    }
    if (!instance)
      return json(res, 503, {
        error: 'temporarily_unavailable',
        error_description: 'the identity provider is stopping',
      });
    instance.handle(req, res);
  };
  const listener: Listener = Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      if (listener.gate) return void listener.gate.then(() => route(req, res));
      route(req, res);
    },
    { gate: undefined as Promise<void> | undefined },
  );
  return listener;
}
