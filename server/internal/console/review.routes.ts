/**
 * Queue, registration detail, decisions and audit history: the reviewer's pages and forms. Decisions go through
 * the internal surface's service functions (transition, audit entry, provisioning step), never HTTP.
 */
import { Router } from 'express';
import { apiError } from '../../errors.js';
import type { AuditEntry } from '../../components/audit/audit.model.js';
import type { ChangeSet } from '../../components/change-sets/change-sets.model.js';
import type { Registration } from '../../components/registrations/registrations.model.js';
import { addComment, listComments } from '../../components/comments/comments.service.js';
import { provisioningStateOf } from '../../components/provisioning/provisioning-state.js';
import { readAuditLog } from '../../components/audit/audit-log.js';
import { decideChangeSet } from '../../components/change-sets/change-set-review.service.js';
import {
  ADMIN_DECISIONS,
  decideRegistration,
  REVIEW_DECISIONS,
} from '../../components/registrations/review.service.js';
import { reviewQueue, MAX_QUEUE_LIMIT } from '../../components/registrations/review-queue.js';
import { configDiff } from './config-diff.js';
import type { ConsoleDeps } from './console-deps.js';
import { field, pageContext, queryParam, reviewerOf, rolesOf, sessionOf } from './console-context.js';
import { consoleError } from './console-errors.js';
import { requireReason } from './decision-reason.js';
import { auditPage, AUDIT_PAGE_SIZE, parseAuditCursor } from './views/audit-page.js';
import { detailHref, queuePage } from './views/queue-page.js';
import { registrationPage } from './views/registration-page.js';

const HISTORY_LIMIT = 200;

const PAST: Record<string, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  request_changes: 'Requested changes on',
  suspend: 'Suspended',
  unsuspend: 'Unsuspended',
  deprecate: 'Deprecated',
};

type Decision = (typeof REVIEW_DECISIONS)[number] | (typeof ADMIN_DECISIONS)[number];

export function createReviewRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const { store } = deps;

  async function pendingChangeSet(registration: Registration): Promise<ChangeSet | null> {
    if (registration.pendingChangeSetId === undefined) return null;
    const changeSet = await store.changeSets.get(
      registration.organizationId,
      registration.id,
      registration.pendingChangeSetId,
    );
    return changeSet?.status === 'pending_review' ? changeSet : null;
  }

  router.get('/', async (req, res) => {
    const organizationId = queryParam(req, 'organizationId');
    const items = await reviewQueue(deps, {
      ...(organizationId !== undefined && { organizationId }),
      limit: MAX_QUEUE_LIMIT,
    });
    res.send(queuePage(pageContext(req, res), items, organizationId));
  });

  router.get('/audit', async (req, res) => {
    const organizationId = queryParam(req, 'organizationId');
    const after = parseAuditCursor(queryParam(req, 'after'));
    // One more than a page tells whether a next page exists.
    const entries = await readAuditLog(deps, {
      ...(organizationId !== undefined && { organizationId }),
      ...(after && { after }),
      limit: AUDIT_PAGE_SIZE + 1,
    });
    res.send(auditPage(pageContext(req, res), entries, organizationId));
  });

  router.get('/organizations/:organizationId/registrations/:registrationId', async (req, res) => {
    const { organizationId, registrationId } = req.params;
    const registration = await store.registrations.get(organizationId, registrationId);
    if (!registration) throw apiError('not_found', 'No such registration.');
    const changeSet = await pendingChangeSet(registration);
    const history: AuditEntry[] = await readAuditLog(deps, { organizationId, registrationId, limit: HISTORY_LIMIT });
    const comments = await listComments(deps, { organizationId, registrationId });
    const provisioning = await provisioningStateOf(store, organizationId, registrationId);
    const diff = changeSet ? configDiff(registration.config, changeSet.changes) : [];
    res.send(
      registrationPage(pageContext(req, res), { registration, changeSet, diff, history, comments, provisioning }),
    );
  });

  router.post('/organizations/:organizationId/registrations/:registrationId/comments', async (req, res) => {
    const { organizationId, registrationId } = req.params;
    await addComment(deps, { organizationId, registrationId, author: reviewerOf(res).sub, body: field(req, 'body') });
    const session = sessionOf(res);
    if (session) session.flash = 'Comment added.';
    res.redirect(303, detailHref(req.baseUrl, organizationId, registrationId));
  });

  router.post('/organizations/:organizationId/registrations/:registrationId/decisions', async (req, res) => {
    const { organizationId, registrationId } = req.params;
    const action = field(req, 'action') as Decision;
    const roles = rolesOf(reviewerOf(res));
    const allowed: readonly string[] = roles.includes('admin')
      ? [...REVIEW_DECISIONS, ...ADMIN_DECISIONS]
      : REVIEW_DECISIONS;
    if (!allowed.includes(action)) {
      throw (ADMIN_DECISIONS as readonly string[]).includes(action)
        ? consoleError('admin_only', 'Suspending, unsuspending and deprecating need the gatehouse:admin scope.')
        : apiError('invalid_request', 'Unknown decision.');
    }
    const reason = requireReason(field(req, 'reason'));
    const revision = Number.parseInt(field(req, 'revision'), 10);
    const after = await decideRegistration(deps, action, {
      organizationId,
      id: registrationId,
      reviewer: reviewerOf(res).sub,
      reason,
      // The revision the reviewer looked at: a record changed since then is refused (412), not decided blind.
      ...(Number.isSafeInteger(revision) && { revisionIn: [revision] }),
    });
    const session = sessionOf(res);
    if (session) session.flash = `${PAST[action]} ${after.name} (${after.id}): now ${after.status.replace(/_/g, ' ')}.`;
    res.redirect(303, `${req.baseUrl}/`);
  });

  router.post(
    '/organizations/:organizationId/registrations/:registrationId/change-sets/:changeSetId/decisions',
    async (req, res) => {
      const { organizationId, registrationId, changeSetId } = req.params;
      const action = field(req, 'action');
      if (action !== 'approve' && action !== 'reject') throw apiError('invalid_request', 'Unknown decision.');
      const changeSet = await decideChangeSet(deps, action, {
        organizationId,
        registrationId,
        changeSetId,
        reviewer: reviewerOf(res).sub,
        reason: requireReason(field(req, 'reason')),
      });
      const session = sessionOf(res);
      if (session) session.flash = `${PAST[action]} change set ${changeSet.id}: now ${changeSet.status}.`;
      res.redirect(303, detailHref(req.baseUrl, organizationId, registrationId));
    },
  );

  return router;
}
