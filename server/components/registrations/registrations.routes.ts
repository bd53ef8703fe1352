/**
 * Organization-scoped registration routes (mounted after organization resolution): list, create, read, edit,
 * delete, submit, withdraw. Routes stay thin: the service validates, authorizes with the state machine and writes.
 */
import { Router, type Request, type Response } from 'express';
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { revisionsFromIfMatch, setEtag } from '../../http/etag.js';
import { idempotentCreate } from '../../http/idempotency.js';
import { pageResult, parseListParams, queryParam, setNextLink, type ListBinding } from '../../http/pagination.js';
import { methodNotAllowed } from '../../middleware/method-not-allowed.js';
import { requireScope } from '../../middleware/require-scope.js';
import { REGISTRATION_STATUSES, type Registration, type RegistrationStatus } from './registrations.model.js';
import { registrationView } from './registration-view.js';
import { rotateClientSecret } from './client-secret.service.js';
import { provisioningStatusOf } from './provisioning-status.js';
import { draftPolicyReport, registrationPolicyReport } from './policy-report.service.js';
import { actionContextOf, requestContextOf, type RequestContext } from './request-context.js';
import {
  createRegistration,
  deleteRegistration,
  getRegistration,
  listRegistrations,
  submitRegistration,
  updateRegistration,
  withdrawRegistration,
} from './registrations.service.js';

/** The canonical absolute URL of a registration (Location), from PUBLIC_BASE_URL. */
export function registrationUrl(publicBaseUrl: string, organizationId: string, id: string): string {
  return `${publicBaseUrl.replace(/\/$/, '')}/api/v1/organizations/${organizationId}/registrations/${id}`;
}

function sendRegistration(
  res: Response,
  context: RequestContext,
  record: Registration,
  status = 200,
  extra: object = {},
): void {
  setEtag(res, record.revision);
  res.status(status).json({ ...registrationView(record, actionContextOf(context)), ...extra });
}

function idParam(req: Request): string {
  return String(req.params.id);
}

export function createRegistrationsRouter(deps: ApiDeps): Router {
  const router = Router();
  const read = requireScope('registrations:read');
  const write = requireScope('registrations:write');

  router
    .route('/registrations')
    .get(read, async (req, res) => {
      const context = requestContextOf(req);
      const status = queryParam(req, 'status');
      if (status !== undefined && !(REGISTRATION_STATUSES as readonly string[]).includes(status)) {
        throw apiError('invalid_request', `status must be one of ${REGISTRATION_STATUSES.join(', ')}.`);
      }
      const binding: ListBinding = {
        resource: 'registrations',
        organizationId: context.organization.id,
        filters: { status },
      };
      const params = parseListParams(req, binding);
      const items = await listRegistrations(deps, context, {
        ...params,
        status: status as RegistrationStatus | undefined,
      });
      const { page, nextCursor } = pageResult(items, params, binding);
      setNextLink(res, req, deps.config.publicBaseUrl, nextCursor, params, binding);
      const actionContext = actionContextOf(context);
      res.json({ data: page.map((r) => registrationView(r, actionContext)), nextCursor });
    })
    .post(write, idempotentCreate(deps), async (req, res) => {
      const context = requestContextOf(req);
      const idempotencyKey = res.locals.idempotencyKey as string | undefined;
      const record = await createRegistration(deps, context, req.body, { idempotencyKey });
      res.setHeader('Location', registrationUrl(deps.config.publicBaseUrl, record.organizationId, record.id));
      sendRegistration(res, context, record, 201);
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));

  // Before '/registrations/:id', so its 405 does not claim this path.
  router
    .route('/registrations/validation')
    .post(read, (req, res) => {
      res.json(draftPolicyReport(requestContextOf(req), req.body));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/registrations/:id/validation')
    .get(read, async (req, res) => {
      const context = requestContextOf(req);
      res.json(await registrationPolicyReport(deps, context, idParam(req)));
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/registrations/:id')
    .get(read, async (req, res) => {
      const context = requestContextOf(req);
      const record = await getRegistration(deps, context, idParam(req));
      // Whether the client at the authorization server is up to date; absent when never provisioned.
      const status = await provisioningStatusOf(deps.store, record);
      sendRegistration(res, context, record, 200, status === 'none' ? {} : { provisioning: { status } });
    })
    .patch(write, async (req, res) => {
      const context = requestContextOf(req);
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      sendRegistration(res, context, await updateRegistration(deps, context, idParam(req), req.body, ifMatch));
    })
    .delete(write, async (req, res) => {
      const context = requestContextOf(req);
      await deleteRegistration(deps, context, idParam(req), revisionsFromIfMatch(req.get('if-match')));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'PATCH', 'DELETE']));

  const actions = { submit: submitRegistration, withdraw: withdrawRegistration } as const;
  for (const [name, perform] of Object.entries(actions)) {
    router
      .route(`/registrations/:id/actions/${name}`)
      .post(write, async (req, res) => {
        const context = requestContextOf(req);
        const ifMatch = revisionsFromIfMatch(req.get('if-match'));
        sendRegistration(res, context, await perform(deps, context, idParam(req), req.body, ifMatch));
      })
      .all(methodNotAllowed(['POST']));
  }

  router
    .route('/registrations/:id/actions/rotate-secret')
    .post(write, async (req, res) => {
      const context = requestContextOf(req);
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      const { registration, clientSecret } = await rotateClientSecret(deps, context, idParam(req), req.body, ifMatch);
      setEtag(res, registration.revision);
      // A credential in the body: never cached by anyone (as RFC 6749 §5.1 asks of token responses).
      res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      res.json({
        clientId: registration.clientId,
        clientSecret,
        clientSecretIssuedAt: (registration.clientSecretIssuedAt as Date).toISOString(),
        registration: registrationView(registration, actionContextOf(context)),
      });
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
