/**
 * Organization-scoped registration routes (mounted after organization resolution): list, create, dry-run the policy,
 * read, edit, delete, submit, withdraw (the secret's actions are secrets/secret.routes.ts). Routes stay thin: the service validates, authorizes with
 * the state machine and writes.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { ApiDeps } from '../../deps.js';
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { apiError } from '../../errors.js';
import { revisionsFromIfMatch, setEtag } from '../../http/etag.js';
import { pageResult, parseListParams, queryParam, setNextLink, type ListBinding } from '../../http/pagination.js';
import { REGISTRATION_STATUSES, type Registration, type RegistrationStatus } from './registrations.model.js';
import { registrationView } from './registration-view.js';
import { provisioningStatusOf } from './provisioning-status.js';
import { draftPolicyReport, registrationPolicyReport } from './policy-report.service.js';
import { actionContextOf, requestContextOf, type RequestContext } from './request-context.js';
import {
  ACTION_REQUEST_SCHEMA,
  createRegistration,
  deleteRegistration,
  getRegistration,
  listRegistrations,
  REGISTRATION_CREATE_SCHEMA,
  REGISTRATION_UPDATE_SCHEMA,
  submitRegistration,
  updateRegistration,
  withdrawRegistration,
} from './registrations.service.js';

const REGISTRATION_SCHEMA = apiSchemaId('registration');
const VALIDATION_SCHEMA = apiSchemaId('registration-validation');
const REGISTRATION_ID = { id: 'The registration (`reg_…`).' };

/** The canonical absolute URL of a registration (Location), from PUBLIC_BASE_URL. */
export function registrationUrl(publicBaseUrl: string, organizationId: string, id: string): string {
  return `${publicBaseUrl.replace(/\/$/, '')}/api/v1/organizations/${organizationId}/registrations/${id}`;
}

export function sendRegistration(
  res: Response,
  deps: Pick<ApiDeps, 'clock'>,
  context: RequestContext,
  record: Registration,
  status = 200,
  extra: object = {},
): void {
  setEtag(res, record.revision);
  res.status(status).json({ ...registrationView(record, actionContextOf(context, deps.clock())), ...extra });
}

function idParam(req: Request): string {
  return String(req.params.id);
}

/** An action POST that moves the registration to another status and answers it. */
function transition(perform: typeof submitRegistration): (deps: ApiDeps) => RequestHandler {
  return (deps) => async (req, res) => {
    const context = requestContextOf(req);
    const ifMatch = revisionsFromIfMatch(req.get('if-match'));
    sendRegistration(res, deps, context, await perform(deps, context, idParam(req), req.body, ifMatch));
  };
}

export const registrationRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/registrations',
    scope: 'registrations:read',
    handler: (deps) => async (req, res) => {
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
      const actionContext = actionContextOf(context, deps.clock());
      res.json({ data: page.map((r) => registrationView(r, actionContext)), nextCursor });
    },
    doc: {
      operationId: 'listRegistrations',
      summary: 'List registrations',
      tag: 'Registrations',
      list: { statuses: REGISTRATION_STATUSES },
      response: { description: 'A page of registrations, oldest first.', schema: REGISTRATION_SCHEMA },
    },
  },
  {
    method: 'post',
    path: '/registrations',
    scope: 'registrations:write',
    idempotent: true,
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const idempotencyKey = res.locals.idempotencyKey as string | undefined;
      const record = await createRegistration(deps, context, req.body, { idempotencyKey });
      res.setHeader('Location', registrationUrl(deps.config.publicBaseUrl, record.organizationId, record.id));
      sendRegistration(res, deps, context, record, 201);
    },
    doc: {
      operationId: 'createRegistration',
      summary: 'Create a draft registration',
      description:
        "Refused with 403 `plan_restricted` when the plan's registration quota is used up. Unknown fields (including `status`, `organizationId`, `clientId`, `revision`) give 422.",
      tag: 'Registrations',
      body: { schema: REGISTRATION_CREATE_SCHEMA },
      response: { status: 201, description: 'The new draft.', schema: REGISTRATION_SCHEMA, headers: ['ETag'] },
      errors: [409],
    },
  },
  {
    method: 'post',
    path: '/registrations/validation',
    scope: 'registrations:read',
    handler: () => (req, res) => {
      res.json(draftPolicyReport(requestContextOf(req), req.body));
    },
    doc: {
      operationId: 'validateRegistrationDraft',
      summary: 'Dry-run the submit-time policy on a create body',
      description:
        'Takes the body of createRegistration (same schema and template rules; structural problems are a 422) and answers what submit would check: the platform policy, the policy profile and the plan.',
      tag: 'Registrations',
      body: { schema: REGISTRATION_CREATE_SCHEMA },
      response: {
        description: 'Every violation and the effective config; nothing is stored.',
        schema: VALIDATION_SCHEMA,
      },
    },
  },
  {
    method: 'get',
    path: '/registrations/:id/validation',
    scope: 'registrations:read',
    handler: (deps) => async (req, res) => {
      res.json(await registrationPolicyReport(deps, requestContextOf(req), idParam(req)));
    },
    doc: {
      operationId: 'validateRegistration',
      summary: 'Dry-run the submit-time policy on a stored registration',
      tag: 'Registrations',
      pathParams: REGISTRATION_ID,
      response: {
        description: 'Every violation submit would report now, and the effective config.',
        schema: VALIDATION_SCHEMA,
      },
    },
  },
  {
    method: 'get',
    path: '/registrations/:id',
    scope: 'registrations:read',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const record = await getRegistration(deps, context, idParam(req));
      // Whether the client at the authorization server is up to date; absent when never provisioned.
      const status = await provisioningStatusOf(deps.store, record);
      sendRegistration(res, deps, context, record, 200, status === 'none' ? {} : { provisioning: { status } });
    },
    doc: {
      operationId: 'getRegistration',
      summary: 'Read a registration',
      tag: 'Registrations',
      pathParams: REGISTRATION_ID,
      response: { description: 'The registration.', schema: REGISTRATION_SCHEMA, headers: ['ETag'] },
    },
  },
  {
    method: 'patch',
    path: '/registrations/:id',
    scope: 'registrations:write',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      sendRegistration(res, deps, context, await updateRegistration(deps, context, idParam(req), req.body, ifMatch));
    },
    doc: {
      operationId: 'updateRegistration',
      summary: 'Edit a registration (action `edit`)',
      description: 'Allowed while `actions` contains `edit` (status draft or changes_requested).',
      tag: 'Registrations',
      pathParams: REGISTRATION_ID,
      body: { schema: REGISTRATION_UPDATE_SCHEMA },
      ifMatch: true,
      response: { description: 'The updated registration.', schema: REGISTRATION_SCHEMA, headers: ['ETag'] },
      errors: [409],
    },
  },
  {
    method: 'delete',
    path: '/registrations/:id',
    scope: 'registrations:write',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      await deleteRegistration(deps, context, idParam(req), revisionsFromIfMatch(req.get('if-match')));
      res.status(204).end();
    },
    doc: {
      operationId: 'deleteRegistration',
      summary: 'Delete a registration (action `delete`)',
      description: 'Allowed while `actions` contains `delete` (status draft or rejected).',
      tag: 'Registrations',
      pathParams: REGISTRATION_ID,
      ifMatch: true,
      response: { status: 204, description: 'Deleted.' },
      errors: [409],
    },
  },
  {
    method: 'post',
    path: '/registrations/:id/actions/submit',
    scope: 'registrations:write',
    handler: transition(submitRegistration),
    doc: {
      operationId: 'submitRegistration',
      summary: 'Submit for review (action `submit`)',
      description:
        'The config must satisfy its policy profile and the platform policy; otherwise 422 lists every violation in `error.fields`.',
      tag: 'Registrations',
      pathParams: REGISTRATION_ID,
      body: { schema: ACTION_REQUEST_SCHEMA, optional: true },
      ifMatch: true,
      response: {
        description: 'The registration, now pending_review.',
        schema: REGISTRATION_SCHEMA,
        headers: ['ETag'],
      },
      errors: [409],
    },
  },
  {
    method: 'post',
    path: '/registrations/:id/actions/withdraw',
    scope: 'registrations:write',
    handler: transition(withdrawRegistration),
    doc: {
      operationId: 'withdrawRegistration',
      summary: 'Withdraw from review (action `withdraw`)',
      tag: 'Registrations',
      pathParams: REGISTRATION_ID,
      body: { schema: ACTION_REQUEST_SCHEMA, optional: true },
      ifMatch: true,
      response: { description: 'The registration, back in draft.', schema: REGISTRATION_SCHEMA, headers: ['ETag'] },
      errors: [409],
    },
  },
];
