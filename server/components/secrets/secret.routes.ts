/**
 * The client secret's actions on a registration (owners only; listed in `actions` when allowed): reveal the secret
 * the authorization server issued, rotate it (with a grace for the previous one), retire the previous one. A
 * secret in a body is never cached by anyone (`Cache-Control: no-store`, as RFC 6749 §5.1 asks of token answers).
 */
import type { Request, Response } from 'express';
import type { ApiDeps } from '../../deps.js';
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { revisionsFromIfMatch, setEtag } from '../../http/etag.js';
import { registrationView } from '../registrations/registration-view.js';
import { sendRegistration } from '../registrations/registrations.routes.js';
import { ACTION_REQUEST_SCHEMA } from '../registrations/registrations.service.js';
import { actionContextOf, requestContextOf, type RequestContext } from '../registrations/request-context.js';
import { retirePreviousSecret } from './retire-previous-secret.service.js';
import { revealSecret, type ShownSecret } from './reveal-secret.service.js';
import { rotateSecret, SECRET_ROTATION_SCHEMA, type RotatedSecret } from './rotate-secret.service.js';

const REGISTRATION_ID = { id: 'The registration (`reg_…`).' };
const CLIENT_SECRET_SCHEMA = apiSchemaId('client-secret');

const idParam = (req: Request) => String(req.params.id);
const ifMatchOf = (req: Request) => revisionsFromIfMatch(req.get('if-match'));

function sendSecret(
  res: Response,
  deps: ApiDeps,
  context: RequestContext,
  shown: ShownSecret & Partial<Pick<RotatedSecret, 'rotation'>>,
): void {
  const { registration, clientSecret, rotation } = shown;
  const secret = registration.secret;
  setEtag(res, registration.revision);
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  res.json({
    clientId: registration.clientId,
    clientSecret,
    clientSecretIssuedAt: secret?.issuedAt.toISOString(),
    ...(secret?.expiresAt && { clientSecretExpiresAt: secret.expiresAt.toISOString() }),
    ...(rotation && {
      rotation: {
        graceSeconds: rotation.graceSeconds,
        immediate: rotation.immediate,
        ...(rotation.previousSecretExpiresAt && {
          previousSecretExpiresAt: rotation.previousSecretExpiresAt.toISOString(),
        }),
      },
    }),
    registration: registrationView(registration, actionContextOf(context, deps.clock())),
  });
}

export const secretRoutes: ApiRoute[] = [
  {
    method: 'post',
    path: '/registrations/:id/actions/reveal-secret',
    scope: 'registrations:write',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      sendSecret(res, deps, context, await revealSecret(deps, context, idParam(req), req.body, ifMatchOf(req)));
    },
    doc: {
      operationId: 'revealClientSecret',
      summary: 'Reveal the client secret once (action `reveal_secret`)',
      description:
        'The secret the authorization server issued when the client was registered, kept sealed until now and returned exactly once (`Cache-Control: no-store`). Listed in `actions` for owners while `clientSecret.revealBefore` is ahead (7 days after it was issued); after that it is discarded and `rotate_secret` gives a new one. Audited.',
      tag: 'Client secrets',
      pathParams: REGISTRATION_ID,
      body: { schema: ACTION_REQUEST_SCHEMA, optional: true },
      ifMatch: true,
      response: {
        description: 'The secret, and the registration after the reveal.',
        schema: CLIENT_SECRET_SCHEMA,
        headers: ['ETag', 'Cache-Control'],
      },
      errors: [409],
    },
  },
  {
    method: 'post',
    path: '/registrations/:id/actions/rotate-secret',
    scope: 'registrations:write',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      sendSecret(res, deps, context, await rotateSecret(deps, context, idParam(req), req.body, ifMatchOf(req)));
    },
    doc: {
      operationId: 'rotateClientSecret',
      summary: 'Rotate the client secret (action `rotate_secret`)',
      description:
        "Sets a new secret at the authorization server (RFC 7592) and returns it once (`Cache-Control: no-store`). The previous secret keeps working for `graceSeconds` (default 86400, at most the policy profile's `maxSecretGraceSeconds`) when the authorization server can hold two (`capabilities.secretRotation.overlap`); otherwise the rotation is immediate, and `rotation.immediate` says so. The new secret expires after the profile's `maxSecretLifetimeDays`. 503 when the authorization server does not confirm: rotating again finishes the same rotation and returns the same secret. Owners only. Audited.",
      tag: 'Client secrets',
      pathParams: REGISTRATION_ID,
      body: { schema: SECRET_ROTATION_SCHEMA, optional: true },
      ifMatch: true,
      response: {
        description: 'The new secret, what became of the previous one, and the registration after the rotation.',
        schema: CLIENT_SECRET_SCHEMA,
        headers: ['ETag', 'Cache-Control'],
      },
      errors: [409],
    },
  },
  {
    method: 'post',
    path: '/registrations/:id/actions/retire-previous-secret',
    scope: 'registrations:write',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const registration = await retirePreviousSecret(deps, context, idParam(req), req.body, ifMatchOf(req));
      sendRegistration(res, deps, context, registration);
    },
    doc: {
      operationId: 'retirePreviousClientSecret',
      summary: 'Stop the previous client secret now (action `retire_previous_secret`)',
      description:
        "Ends a rotation's grace: the authorization server stops accepting the previous secret at once. Listed in `actions` while `clientSecret.previousExpiresAt` is ahead. Owners only. Audited.",
      tag: 'Client secrets',
      pathParams: REGISTRATION_ID,
      body: { schema: ACTION_REQUEST_SCHEMA, optional: true },
      ifMatch: true,
      response: {
        description: 'The registration, without a previous secret.',
        schema: apiSchemaId('registration'),
        headers: ['ETag'],
      },
      errors: [409],
    },
  },
];
