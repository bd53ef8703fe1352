/** Organization-scoped change-set routes under a registration: list, propose, read, withdraw. */
import { Router, type Request, type Response } from 'express';
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { revisionsFromIfMatch, setEtag } from '../../http/etag.js';
import { idempotentCreate } from '../../http/idempotency.js';
import { pageResult, parseListParams, queryParam, setNextLink, type ListBinding } from '../../http/pagination.js';
import { methodNotAllowed } from '../../middleware/method-not-allowed.js';
import { requireScope } from '../../middleware/require-scope.js';
import { registrationUrl } from '../registrations/registrations.routes.js';
import { requestContextOf, type RequestContext } from '../registrations/request-context.js';
import { changeSetView } from './change-set-view.js';
import { CHANGE_SET_STATUSES, type ChangeSet, type ChangeSetStatus } from './change-sets.model.js';
import { getChangeSet, listChangeSets, proposeChangeSet, withdrawChangeSet } from './change-sets.service.js';

function sendChangeSet(
  res: Response,
  context: RequestContext,
  record: ChangeSet,
  lockHolder: string | undefined,
  status = 200,
): void {
  setEtag(res, record.revision);
  res.status(status).json(changeSetView(record, { scopes: context.principal.scopes, lockHolder }));
}

const registrationId = (req: Request) => String(req.params.id);
const changeSetId = (req: Request) => String(req.params.changeSetId);

export function createChangeSetsRouter(deps: ApiDeps): Router {
  const router = Router();
  const read = requireScope('registrations:read');
  const write = requireScope('change_sets:write');

  router
    .route('/registrations/:id/change-sets')
    .get(read, async (req, res) => {
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
      const view = { scopes: context.principal.scopes, lockHolder: registration.pendingChangeSetId };
      res.json({ data: page.map((c) => changeSetView(c, view)), nextCursor });
    })
    .post(write, idempotentCreate(deps), async (req, res) => {
      const context = requestContextOf(req);
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      const idempotencyKey = res.locals.idempotencyKey as string | undefined;
      const record = await proposeChangeSet(deps, context, registrationId(req), req.body, ifMatch, { idempotencyKey });
      res.setHeader(
        'Location',
        `${registrationUrl(deps.config.publicBaseUrl, record.organizationId, record.registrationId)}/change-sets/${record.id}`,
      );
      sendChangeSet(res, context, record, record.id, 201);
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));

  router
    .route('/registrations/:id/change-sets/:changeSetId')
    .get(read, async (req, res) => {
      const context = requestContextOf(req);
      const { changeSet, registration } = await getChangeSet(deps, context, registrationId(req), changeSetId(req));
      sendChangeSet(res, context, changeSet, registration.pendingChangeSetId);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/registrations/:id/change-sets/:changeSetId/actions/withdraw')
    .post(write, async (req, res) => {
      const context = requestContextOf(req);
      const ifMatch = revisionsFromIfMatch(req.get('if-match'));
      // Withdrawing released the registration lock: nothing holds it now.
      sendChangeSet(
        res,
        context,
        await withdrawChangeSet(deps, context, registrationId(req), changeSetId(req), req.body, ifMatch),
        undefined,
      );
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
