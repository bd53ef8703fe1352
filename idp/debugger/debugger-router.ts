/**
 * `/_debugger` (docs/architecture.md §3.4): pick a client, run authorization code + PKCE through the IdP's
 * own login and consent pages, and see the decoded ID and access tokens, userinfo and a refresh. The debugger is a
 * relying party living on the IdP: its callback `{issuer}/_debugger/callback` is registered on every code-flow
 * client while the testing API is on, and it calls the token and userinfo endpoints at the issuer (loopback).
 */
import { createHash, randomBytes } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { ClientMetadata } from 'oidc-provider';
import type { IssuerInstance } from '../issuer-instance.js';
import { ROUTES } from '../provider.js';
import { DEBUGGER_CALLBACK } from './debugger-callback.js';
import { resultPage, startForm } from './debugger-pages.js';

const PENDING_MAX = 100;
const PENDING_TTL_MS = 10 * 60 * 1000;

interface Pending {
  clientId: string;
  verifier: string;
  nonce: string;
  at: number;
}

/** The clients the debugger can run a code flow for: those holding its callback. */
function debuggerClients(instance: IssuerInstance): ClientMetadata[] {
  const callback = `${instance.issuer.replace(/\/$/, '')}${DEBUGGER_CALLBACK}`;
  return (instance.built?.staticClients ?? []).filter((c) => c.redirect_uris?.includes(callback));
}

function decoded(token: string | undefined): unknown {
  if (!token) return '(none)';
  if (token.split('.').length !== 3) return `opaque token (${token.length} characters)`;
  try {
    return { header: decodeProtectedHeader(token), payload: decodeJwt(token) };
  } catch {
    return '(not a decodable JWT)';
  }
}

async function callJson(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

export function debuggerRouter(instance: IssuerInstance): express.Express {
  const app = express();
  app.disable('x-powered-by');
  const pending = new Map<string, Pending>();
  const base = instance.issuer.replace(/\/$/, '');
  const callback = `${base}${DEBUGGER_CALLBACK}`;
  const here = `${instance.mountPath}/_debugger`;
  app.use((_req, res, next) => {
    res.set({
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    next();
  });
  const clientChoices = () =>
    debuggerClients(instance).map((c) => ({
      clientId: c.client_id,
      label: `${c.client_id}${c.client_secret ? '' : ' (public, PKCE)'}`,
    }));
  const credentials = (clientId: string) => debuggerClients(instance).find((c) => c.client_id === clientId);

  app.get('/', (_req, res) => {
    res.type('html').send(startForm({ action: `${here}/start`, clients: clientChoices(), issuer: instance.issuer }));
  });

  app.post('/start', express.urlencoded({ extended: false, limit: '8kb' }), (req: Request, res: Response) => {
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    const clientId = form.client_id ?? '';
    if (!credentials(clientId)) {
      return void res
        .status(400)
        .type('html')
        .send(
          startForm({
            action: `${here}/start`,
            clients: clientChoices(),
            issuer: instance.issuer,
            error: `unknown client "${clientId}"`,
          }),
        );
    }
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(16).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    for (const [key, p] of pending)
      if (Date.now() - p.at > PENDING_TTL_MS || pending.size >= PENDING_MAX) pending.delete(key);
    pending.set(state, { clientId, verifier, nonce, at: Date.now() });
    const params = new URLSearchParams({
      client_id: clientId,
      redirect_uri: callback,
      response_type: 'code',
      scope: form.scope || 'openid',
      state,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    if (form.login_hint) params.set('login_hint', form.login_hint);
    res.redirect(303, `${instance.mountPath}${ROUTES.authorization}?${params.toString()}`);
  });

  app.get('/callback', async (req: Request, res: Response) => {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const flow = pending.get(state);
    pending.delete(state);
    if (!flow)
      return void res
        .status(400)
        .type('html')
        .send(
          startForm({
            action: `${here}/start`,
            clients: clientChoices(),
            issuer: instance.issuer,
            error: 'unknown or expired state: start again',
          }),
        );
    if (req.query.error) {
      return void res
        .status(400)
        .type('html')
        .send(
          resultPage({
            restart: here,
            sections: [{ title: 'Authorization error', id: 'authorization-error', value: req.query }],
          }),
        );
    }
    const client = credentials(flow.clientId)!;
    const auth: Record<string, string> = client.client_secret
      ? {
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`,
        }
      : {};
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: new URLSearchParams(client.client_secret ? fields : { ...fields, client_id: client.client_id }),
    });
    const token = await callJson(
      `${base}${ROUTES.token}`,
      form({
        grant_type: 'authorization_code',
        code: typeof req.query.code === 'string' ? req.query.code : '',
        redirect_uri: callback,
        code_verifier: flow.verifier,
      }),
    );
    const tokens = token.body as { access_token?: string; id_token?: string; refresh_token?: string };
    const sections: { title: string; id: string; value: unknown }[] = [
      { title: `Token response (HTTP ${token.status})`, id: 'token-response', value: token.body },
    ];
    if (token.status === 200) {
      const idClaims = decoded(tokens.id_token) as { payload?: { nonce?: string } };
      sections.push({ title: 'ID token (decoded)', id: 'id-token', value: idClaims });
      if (idClaims.payload && idClaims.payload.nonce !== flow.nonce)
        sections.push({ title: 'Warning', id: 'nonce', value: 'the ID token nonce does not match the request' });
      sections.push({ title: 'Access token (decoded)', id: 'access-token', value: decoded(tokens.access_token) });
      const userinfo = await callJson(`${base}${ROUTES.userinfo}`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      sections.push({ title: `Userinfo (HTTP ${userinfo.status})`, id: 'userinfo', value: userinfo.body });
      if (tokens.refresh_token) {
        const refreshed = await callJson(
          `${base}${ROUTES.token}`,
          form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
        );
        const fresh = refreshed.body as { id_token?: string; access_token?: string };
        sections.push({
          title: `Refresh (HTTP ${refreshed.status})`,
          id: 'refresh',
          value:
            refreshed.status === 200
              ? {
                  id_token: decoded(fresh.id_token),
                  access_token: decoded(fresh.access_token),
                  response: refreshed.body,
                }
              : refreshed.body,
        });
      } else {
        sections.push({ title: 'Refresh', id: 'refresh', value: 'no refresh token (ask for offline_access)' });
      }
    }
    res.type('html').send(resultPage({ restart: here, sections }));
  });

  return app;
}
