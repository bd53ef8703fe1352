/**
 * Client secrets at the registration endpoints (issue #27; request shapes in idp/README.md "Client secrets"). RFC 7592
 * PUT may carry a new `client_secret` (oidc-provider insists it equals the current one), `client_secret_expires_at`
 * (it forbids that field) and `client_secret_previous_expires_at` (the overlap); RFC 7591 POST may carry
 * `client_secret_expires_at` (it resets it to 0). This reads those fields, hands oidc-provider a body it accepts — the
 * current secret, and the previous secret as extra client metadata — and once oidc-provider has stored the client
 * sets the new secret and its lifetime. The previous secret is stored but never shown in an answer.
 */
import type Provider from 'oidc-provider';
import type { Adapter, KoaContextWithOIDC } from 'oidc-provider';
import { jsonObject, readBody, replayBody } from './request-body.js';
import {
  isRotation,
  nextSecrets,
  secretRequestProblem,
  type ClientSecrets,
  type SecretRequest,
} from './secret-rotation.js';

type Next = () => Promise<void>;
type Metadata = Record<string, unknown> & ClientSecrets;

/** Fields a caller may send but oidc-provider must not see as sent. */
const SECRET_FIELDS = [
  'client_secret',
  'client_secret_expires_at',
  'client_secret_previous',
  'client_secret_previous_expires_at',
] as const;

/** Members of oidc-provider's Client class that @types/oidc-provider leaves out. */
interface ClientStatics {
  adapter: Adapter;
  needsSecret(metadata: Record<string, unknown>): boolean;
}

const now = () => Math.floor(Date.now() / 1000);

function without(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !fields.includes(key)));
}

function refuse(ctx: KoaContextWithOIDC, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  ctx.body = { error, error_description: description };
}

function hidePrevious(body: unknown): void {
  if (body && typeof body === 'object') delete (body as Metadata).client_secret_previous;
}

/** The request's JSON object body, read once; undefined (bytes replayed as they were) when it is not one. */
async function takeJson(ctx: KoaContextWithOIDC): Promise<Record<string, unknown> | undefined | 'too large'> {
  const bytes = await readBody(ctx.req);
  if (!bytes) return 'too large';
  const body = jsonObject(bytes);
  if (!body) replayBody(ctx.req, bytes);
  return body;
}

export function registrationSecrets(provider: Provider, registrationPath: string) {
  const clientPath = new RegExp(`^${registrationPath}/([^/]+)$`);
  const Client = provider.Client as unknown as ClientStatics;
  const store = async (clientId: string, metadata: Metadata) => Client.adapter.upsert(clientId, metadata, 0);

  async function register(ctx: KoaContextWithOIDC, next: Next): Promise<void> {
    const body = await takeJson(ctx);
    if (body === 'too large') return refuse(ctx, 400, 'invalid_request', 'the request body is too large');
    if (!body) return next();
    const request: SecretRequest = { client_secret_expires_at: body.client_secret_expires_at };
    const problem = secretRequestProblem(request);
    if (problem) return refuse(ctx, 400, 'invalid_client_metadata', problem);
    // RFC 7591 §3.2.1: the server issues the secret; a client_secret in the request is ignored, as oidc-provider does.
    replayBody(ctx.req, Buffer.from(JSON.stringify(without(body, SECRET_FIELDS))));
    await next();
    const answer = ctx.body as Metadata | undefined;
    if (ctx.status !== 201 || !answer?.client_secret || request.client_secret_expires_at === undefined) return;
    const clientId = answer.client_id as string;
    const stored = (await Client.adapter.find(clientId)) as Metadata;
    await store(clientId, { ...stored, client_secret_expires_at: request.client_secret_expires_at as number });
    answer.client_secret_expires_at = request.client_secret_expires_at as number;
  }

  async function update(ctx: KoaContextWithOIDC, next: Next, clientId: string): Promise<void> {
    const body = await takeJson(ctx);
    if (body === 'too large') return refuse(ctx, 400, 'invalid_request', 'the request body is too large');
    if (!body) return next();
    // Only an authenticated caller learns anything about the client: otherwise oidc-provider answers as it would.
    const token = /^Bearer (\S+)$/i.exec(ctx.get('authorization'))?.[1];
    const rat = token ? await provider.RegistrationAccessToken.find(token) : undefined;
    const stored =
      rat?.clientId === clientId ? ((await Client.adapter.find(clientId)) as Metadata | undefined) : undefined;
    if (!stored) {
      replayBody(ctx.req, Buffer.from(JSON.stringify(body)));
      return next();
    }
    const request: SecretRequest = body;
    const rotation = isRotation(stored, request);
    const needsSecret = Client.needsSecret(body);
    const problem =
      secretRequestProblem(request) ??
      (rotation && !needsSecret
        ? 'a client without a secret (token_endpoint_auth_method none or private_key_jwt) cannot be given one'
        : undefined);
    if (problem) return refuse(ctx, 400, 'invalid_client_metadata', problem);

    const secrets = nextSecrets(stored, request, now());
    replayBody(
      ctx.req,
      Buffer.from(
        JSON.stringify({
          ...without(body, SECRET_FIELDS),
          // What oidc-provider checks the body against (RFC 7592 §2.2); the new secret is set once it has stored.
          ...(stored.client_secret ? { client_secret: stored.client_secret } : {}),
          ...(needsSecret && secrets.client_secret_previous
            ? {
                client_secret_previous: secrets.client_secret_previous,
                client_secret_previous_expires_at: secrets.client_secret_previous_expires_at,
              }
            : {}),
        }),
      ),
    );
    await next();
    const answer = ctx.body as Metadata | undefined;
    if (ctx.status !== 200 || !answer) return;
    hidePrevious(answer);
    const after = (await Client.adapter.find(clientId)) as Metadata | undefined;
    if (!after?.client_secret) return;
    const final = {
      client_secret: rotation ? (request.client_secret as string) : after.client_secret,
      client_secret_expires_at: secrets.client_secret_expires_at ?? 0,
    };
    if (
      final.client_secret !== after.client_secret ||
      final.client_secret_expires_at !== after.client_secret_expires_at
    )
      await store(clientId, { ...after, ...final });
    Object.assign(answer, final);
  }

  return async (ctx: KoaContextWithOIDC, next: Next): Promise<void> => {
    const clientId = clientPath.exec(ctx.path)?.[1];
    const json = ctx.is('application/json');
    if (ctx.method === 'POST' && ctx.path === registrationPath && json) return register(ctx, next);
    if (ctx.method === 'PUT' && clientId && json) return update(ctx, next, decodeURIComponent(clientId));
    await next();
    if (clientId && ctx.method === 'GET') hidePrevious(ctx.body);
  };
}
