/** Organization-scoped change-set routes under a registration: list, propose, read, withdraw. */
import type { Request, Response } from 'express';
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { apiError } from '../../errors.js';
import { revisionsFromIfMatch, setEtag } from '../../http/etag.js';
import { pageResult, parseListParams, queryParam, setNextLink, type ListBinding } from '../../http/pagination.js';
import { registrationUrl } from '../registrations/registrations.routes.js';
import { ACTION_REQUEST_SCHEMA } from '../registrations/registrations.service.js';
import { requestContextOf, type RequestContext } from '../registrations/request-context.js';
import { changeSetView } from './change-set-view.js';
import { CHANGE_SET_STATUSES, type ChangeSet, type ChangeSetStatus } from './change-sets.model.js';
import {
  CHANGE_SET_CREATE_SCHEMA,
  changeSetCaller,
  getChangeSet,
  listChangeSets,
  proposeChangeSet,
  withdrawChangeSet,
} from './change-sets.service.js';

const CHANGE_SET_SCHEMA = apiSchemaId('change-set');
const REGISTRATION_ID = { id: 'The registration (`reg_…`).' };
const CHANGE_SET_IDS = { ...REGISTRATION_ID, changeSetId: 'The change set (`cs_…`).' };

function sendChangeSet(
  res: Response,
  context: RequestContext,
  record: ChangeSet,
  lockHolder: string | undefined,
  status = 200,
): void {
  setEtag(res, record.revision);
  res.status(status).json(changeSetView(record, { ...changeSetCaller(context), lockHolder }));
}

const registrationId = (req: Request) => String(req.params.id);
const changeSetId = (req: Request) => String(req.params.changeSetId);

export const changeSetRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/registrations/:id/change-sets',
    scope: 'registrations:read',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const status = queryParam(req, 'status');
      if (status !== undefined && !(CHANGE_SET_STATUSES as readonly string[]).includes(status)) {
        throw apiError('invalid_request', `status must be one of ${CHANGE_SET_STATUSES.join(', ')}.`);
      }
      const binding: ListBinding = {
        resource: `registrations/${registrationId(req)}/change-sets`,
        organizationId: context.organization.id,
        filters: { status },
      };
      const params = parseListParams(req, binding);
      const { items, registration } = await listChangeSets(deps, context, registrationId(req), {
        ...params,
        status: status as ChangeSetStatus | undefined,
      });
      const { page, nextCursor } = pageResult(items, params, binding);
      setNextLink(res, req, deps.config.publicBaseUrl, nextCursor, params, binding);
      const view = { ...changeSetCaller(context), lockHolder: registration.pendingChangeSetId };
      res.json({ data: page.map((c) => changeSetView(c, view)), nextCursor });
    },
    doc: {
      operationId: 'listChangeSets',
      summary: 'List the change sets of a registration',
      tag: 'Change sets',
      pathParams: REGISTRATION_ID,
      list: { statuses: CHANGE_SET_STATUSES },
      response: { description: 'A page of change sets, oldest first.', schema: CHANGE_SET_SCHEMA },
    },
  },
  {
    method: 'post',
    path: '/registrations/:id/change-sets',
    scope: 'change_sets:write',
    idempotent: true,
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      const idempotencyKey = res.locals.idempotencyKey as string | undefined;
      const record = await proposeChangeSet(deps, context, registrationId(req), req.body, ifMatch, { idempotencyKey });
      res.setHeader(
        'Location',
        `${registrationUrl(deps.config.publicBaseUrl, record.organizationId, record.registrationId)}/change-sets/${record.id}`,
      );
      sendChangeSet(res, context, record, record.id, 201);
    },
    doc: {
      operationId: 'proposeChangeSet',
      summary: 'Propose a change set against an active registration (action `propose_change_set`)',
      description:
        'One change set may be pending per registration (409 `conflict`); the plan must include change sets (403 `plan_restricted`); the resulting config must satisfy the policy (422).',
      tag: 'Change sets',
      pathParams: REGISTRATION_ID,
      body: { schema: CHANGE_SET_CREATE_SCHEMA },
      ifMatch: 'Strong ETag of the registration the change is based on.',
      response: {
        status: 201,
        description: 'The proposed change set, pending review.',
        schema: CHANGE_SET_SCHEMA,
        headers: ['ETag'],
      },
      errors: [409],
    },
  },
  {
    method: 'get',
    path: '/registrations/:id/change-sets/:changeSetId',
    scope: 'registrations:read',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const { changeSet, registration } = await getChangeSet(deps, context, registrationId(req), changeSetId(req));
      sendChangeSet(res, context, changeSet, registration.pendingChangeSetId);
    },
    doc: {
      operationId: 'getChangeSet',
      summary: 'Read a change set',
      tag: 'Change sets',
      pathParams: CHANGE_SET_IDS,
      response: { description: 'The change set.', schema: CHANGE_SET_SCHEMA, headers: ['ETag'] },
    },
  },
  {
    method: 'post',
    path: '/registrations/:id/change-sets/:changeSetId/actions/withdraw',
    scope: 'change_sets:write',
    handler: (deps) => async (req, res) => {
      const context = requestContextOf(req);
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      const record = await withdrawChangeSet(deps, context, registrationId(req), changeSetId(req), req.body, ifMatch);
      // Withdrawing released the registration lock: nothing holds it now.
      sendChangeSet(res, context, record, undefined);
    },
    doc: {
      operationId: 'withdrawChangeSet',
      summary: 'Withdraw a pending change set (change-set action `withdraw`)',
      tag: 'Change sets',
      pathParams: CHANGE_SET_IDS,
      body: { schema: ACTION_REQUEST_SCHEMA, optional: true },
      ifMatch: true,
      response: { description: 'The change set, withdrawn.', schema: CHANGE_SET_SCHEMA, headers: ['ETag'] },
      errors: [409],
    },
  },
];
