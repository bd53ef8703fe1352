/**
 * Internal routes on one registration: detail (with provisioning state), the reviewer decisions
 * (approve, reject, request-changes: `gatehouse:review`), the admin ones (suspend, unsuspend, deprecate:
 * `gatehouse:admin`), change-set decisions, comments and the registration's audit history.
 */
import { Router, type Request } from 'express';
import { apiError } from '../../errors.js';
import { revisionsFromIfMatch, setEtag } from '../../http/etag.js';
import { validateBody } from '../../http/validate-body.js';
import type { ReviewAction } from '../../components/registrations/state-machine.js';
import { addComment, listComments } from '../../components/comments/comments.service.js';
import type { InternalDeps } from '../internal-deps.js';
import { internalRegistrationView } from '../internal-views.js';
import { changeSetIdOf, limitOf, organizationIdOf, registrationIdOf } from '../path-params.js';
import { canAdminister, canRead, canReview } from '../require-internal-scope.js';
import {
  ADMIN_DECISIONS,
  REVIEW_DECISIONS,
  decideRegistration,
} from '../../components/registrations/review.service.js';
import { decideChangeSet } from '../../components/change-sets/change-set-review.service.js';
import { changeSetRecordView } from '../internal-views.js';
import { readAuditLog } from '../../components/audit/audit-log.js';
import { provisioningStateOf } from '../../components/provisioning/provisioning-state.js';
import { stepId } from '../../components/provisioning/provisioning.repository.js';

const DECISION_SCHEMA = 'https://gatehouse.dev/schemas/internal/decision.schema.json';
const COMMENT_SCHEMA = 'https://gatehouse.dev/schemas/internal/comment-create.schema.json';
const BASE = '/organizations/:organizationId/registrations/:registrationId';

const actor = (req: Request): string => req.principal!.sub;

export function createInternalRegistrationsRouter(deps: InternalDeps): Router {
  const router = Router();

  router.get(BASE, canRead, async (req, res) => {
    const registration = await deps.store.registrations.get(organizationIdOf(req), registrationIdOf(req));
    if (!registration) throw apiError('not_found', 'No such registration.');
    setEtag(res, registration.revision);
    res.json(
      internalRegistrationView(registration, {
        provisioning: await provisioningStateOf(deps.store, registration.organizationId, registration.id),
      }),
    );
  });

  const decisions: [readonly ReviewAction[], typeof canReview][] = [
    [REVIEW_DECISIONS, canReview],
    [ADMIN_DECISIONS, canAdminister],
  ];
  for (const [actions, allowed] of decisions) {
    for (const action of actions) {
      router.post(`${BASE}/actions/${action.replace('_', '-')}`, allowed, async (req, res) => {
        const organizationId = organizationIdOf(req);
        const id = registrationIdOf(req);
        const body = validateBody<{ reason?: string }>(DECISION_SCHEMA, req.body);
        const revisionIn = revisionsFromIfMatch(req.headers['if-match']);
        const registration = await decideRegistration(deps, action, {
          organizationId,
          id,
          reviewer: actor(req),
          reason: body.reason,
          revisionIn,
        });
        setEtag(res, registration.revision);
        res.json(
          internalRegistrationView(registration, {
            provisioning: await provisioningStateOf(deps.store, registration.organizationId, registration.id),
          }),
        );
      });
    }
  }

  for (const action of ['approve', 'reject'] as const) {
    router.post(`${BASE}/change-sets/:changeSetId/actions/${action}`, canReview, async (req, res) => {
      const body = validateBody<{ reason?: string }>(DECISION_SCHEMA, req.body);
      const changeSet = await decideChangeSet(deps, action, {
        organizationId: organizationIdOf(req),
        registrationId: registrationIdOf(req),
        changeSetId: changeSetIdOf(req),
        reviewer: actor(req),
        reason: body.reason,
      });
      res.json(changeSetRecordView(changeSet));
    });
  }

  // An admin sends failed provisioning steps back to the outbox (after fixing the cause at the AS), or enqueues the
  // registration of an approved client that has no step at all (a crash between the approval and its enqueue).
  router.post(`${BASE}/provisioning/retry`, canAdminister, async (req, res) => {
    const organizationId = organizationIdOf(req);
    const registration = await deps.store.registrations.get(organizationId, registrationIdOf(req));
    if (!registration) throw apiError('not_found', 'No such registration.');
    const steps = await deps.store.provisioning.listSteps(organizationId, registration.id);
    const failed = steps.filter((s) => s.status === 'failed');
    const unprovisioned =
      deps.provisioning &&
      steps.length === 0 &&
      (registration.status === 'active' || registration.status === 'suspended');
    if (unprovisioned) {
      await deps.provisioning!.enqueue({
        kind: 'register',
        organizationId,
        registrationId: registration.id,
        revision: registration.revision,
      });
    } else if (failed.length === 0)
      throw apiError('invalid_transition', 'No provisioning step of this registration has failed.');
    for (const step of failed)
      await deps.store.provisioning.retry(stepId(step.registrationId, step.kind, step.revision), deps.clock());
    deps.provisioningWorker?.kick();
    res.json(
      internalRegistrationView(registration, {
        provisioning: await provisioningStateOf(deps.store, organizationId, registration.id),
      }),
    );
  });

  router.get(`${BASE}/comments`, canRead, async (req, res) => {
    const data = await listComments(deps, {
      organizationId: organizationIdOf(req),
      registrationId: registrationIdOf(req),
      limit: limitOf(req, 100, 500),
    });
    res.json({ data });
  });

  router.post(`${BASE}/comments`, canRead, async (req, res) => {
    const organizationId = organizationIdOf(req);
    const registrationId = registrationIdOf(req);
    const body = validateBody<{ body: string }>(COMMENT_SCHEMA, req.body);
    const comment = await addComment(deps, { organizationId, registrationId, author: actor(req), body: body.body });
    res.status(201).json(comment);
  });

  router.get(`${BASE}/audit`, canRead, async (req, res) => {
    const organizationId = organizationIdOf(req);
    const registrationId = registrationIdOf(req);
    if (!(await deps.store.registrations.get(organizationId, registrationId)))
      throw apiError('not_found', 'No such registration.');
    res.json({ data: await readAuditLog(deps, { organizationId, registrationId, limit: limitOf(req, 100, 500) }) });
  });

  return router;
}
