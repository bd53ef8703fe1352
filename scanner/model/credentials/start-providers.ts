/**
 * Builds and starts the credential provider of every identity whose credential the scanner obtains itself — a login
 * operation of the description, an OAuth 2.0 grant — before the scan's first check: a credential that cannot be
 * obtained is a fatal error naming the identity, not a scan of nothing.
 */
import type { Operation, ProbeRequest, ProbeResponse } from '../../api.js';
import { scannerError } from '../../errors.js';
import type { ApiDescription } from '../describe-api.js';
import type { ScanIdentity } from '../identities.js';
import { createLoginProvider } from './login-provider.js';
import { createOAuthProvider } from './oauth-provider.js';

type Send = (operation: Operation, probe: ProbeRequest, identity?: ScanIdentity) => Promise<ProbeResponse>;

/** The sign-in operation a login spec names (`POST /api/login`, or an operationId), else the description's first. */
function signInOperation(description: ApiDescription, named: string | undefined, identity: string): Operation {
  const operation = named
    ? description.operations.find((op) => op.id === named || op.operationId === named)
    : description.operations.find((op) => description.placeOf(op)?.role === 'sign-in');
  if (!operation)
    throw scannerError(
      'invalid_argument',
      named
        ? `--identity ${identity}: the description has no operation ${named}`
        : `--identity ${identity}: the description has no sign-in operation (login, token, session); name one with operation=…`,
    );
  return operation;
}

export async function startProviders(
  description: ApiDescription,
  identities: readonly ScanIdentity[],
  send: Send,
): Promise<void> {
  for (const identity of identities) {
    const credential = identity.spec.credential;
    if (credential.kind === 'login') {
      const operation = signInOperation(description, credential.operation, identity.name);
      const media = description.shapeOf(operation).requestMedia ?? 'application/json';
      identity.attach(
        createLoginProvider(
          {
            identity: identity.name,
            operation,
            encoding: media.includes('x-www-form-urlencoded') ? 'form' : 'json',
            fields: credential.fields,
            ...(credential.token ? { tokenPointer: credential.token } : {}),
          },
          (request) =>
            send(operation, { url: request.url, body: request.body, headers: request.headers, credential: null }),
        ),
      );
    } else if (credential.kind === 'oauth2') {
      identity.attach(createOAuthProvider(identity.name, credential));
    } else continue;
    await identity.provider!.start();
  }
}
