/**
 * The HTTP side of provisioning: RFC 7591 §3 register (initial access token), RFC 7592 §2.2 PUT and §2.3 DELETE
 * (registration access token). Every call has a timeout; failures say whether retrying can help.
 */
import type { ClientMetadata } from './client-metadata.js';

const TIMEOUT_MS = 5000;

/** A failed call: `permanent` when the server refused the request itself (4xx other than 408/429). */
export class ProvisioningCallError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProvisioningCallError';
  }
}

interface RegisteredClient {
  clientId: string;
  registrationClientUri: string;
  registrationAccessToken: string;
  /** RFC 7591 §3.2.1: issued for clients that authenticate with a secret. */
  clientSecret?: string;
  /** When that secret expires (`client_secret_expires_at`, epoch seconds; absent or 0: never). */
  clientSecretExpiresAt?: number;
}

/** What an RFC 7592 PUT answered about the client's secrets (the rest of the metadata is not needed here). */
export interface UpdatedClient {
  clientSecretExpiresAt?: number;
  /** Our IdP's extension: until when the previous secret still works (absent: none does). */
  clientSecretPreviousExpiresAt?: number;
}

export interface RegistrationClient {
  register(metadata: ClientMetadata): Promise<RegisteredClient>;
  /**
   * RFC 7592 §2.2 full replacement. With `client_secret` it sets a new secret (with our IdP's
   * `client_secret_previous_expires_at`, the replaced one keeps working until then).
   */
  update(uri: string, accessToken: string, metadata: ClientMetadata & { client_id: string }): Promise<UpdatedClient>;
  /** Resolves when the client is gone, also when it was gone already (404/401 after deletion). */
  remove(uri: string, accessToken: string): Promise<void>;
}

async function call(
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ProvisioningCallError(`the authorization server is unreachable (${(error as Error).name})`, false);
  }
  const text = await res.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}

function failure(what: string, status: number, body: Record<string, unknown> | undefined): ProvisioningCallError {
  // Only the protocol's error fields are kept (RFC 7591 §3.2.2): no echo of anything else the server sent.
  const detail = [body?.error, body?.error_description]
    .filter((v) => typeof v === 'string')
    .join(': ')
    .slice(0, 300);
  const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return new ProvisioningCallError(`${what} answered ${status}${detail ? ` (${detail})` : ''}`, permanent, status);
}

export function createRegistrationClient(options: {
  endpoint: string;
  initialAccessToken: string;
}): RegistrationClient {
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  return {
    async register(metadata) {
      const { status, body } = await call(options.endpoint, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${options.initialAccessToken}` },
        body: JSON.stringify(metadata),
      });
      if (status !== 201 || !body) throw failure('registration', status, body);
      const { client_id: clientId, registration_client_uri: uri, registration_access_token: token } = body;
      if (typeof clientId !== 'string' || typeof uri !== 'string' || typeof token !== 'string') {
        throw new ProvisioningCallError(
          'registration response lacks client_id, registration_client_uri or registration_access_token',
          true,
          status,
        );
      }
      return {
        clientId,
        registrationClientUri: uri,
        registrationAccessToken: token,
        ...(typeof body.client_secret === 'string' && { clientSecret: body.client_secret }),
        ...(typeof body.client_secret_expires_at === 'number' && {
          clientSecretExpiresAt: body.client_secret_expires_at,
        }),
      };
    },
    async update(uri, accessToken, metadata) {
      const { status, body } = await call(uri, {
        method: 'PUT',
        headers: { ...json, authorization: `Bearer ${accessToken}` },
        body: JSON.stringify(metadata),
      });
      if (status !== 200) throw failure('client update', status, body);
      return {
        ...(typeof body?.client_secret_expires_at === 'number' && {
          clientSecretExpiresAt: body.client_secret_expires_at,
        }),
        ...(typeof body?.client_secret_previous_expires_at === 'number' && {
          clientSecretPreviousExpiresAt: body.client_secret_previous_expires_at,
        }),
      };
    },
    async remove(uri, accessToken) {
      const { status, body } = await call(uri, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${accessToken}` },
      });
      if (status === 204 || status === 404) return;
      throw failure('client deletion', status, body);
    },
  };
}
