/** `GET /review-queue`: pending registrations and change sets, oldest first; `?organizationId=` narrows it. */
import { Router } from 'express';
import { apiError } from '../../errors.js';
import { isId } from '../../ids.js';
import type { InternalDeps } from '../internal-deps.js';
import { internalRegistrationView } from '../internal-views.js';
import { limitOf, queryString } from '../path-params.js';
import { canRead } from '../require-internal-scope.js';
import { MAX_QUEUE_LIMIT, reviewQueue } from '../../components/registrations/review-queue.js';

export function createQueueRouter(deps: InternalDeps): Router {
  const router = Router();
  router.get('/review-queue', canRead, async (req, res) => {
    const organizationId = queryString(req, 'organizationId');
    if (organizationId !== undefined && !isId('org', organizationId))
      throw apiError('invalid_request', 'organizationId is not an organization id.');
    const items = await reviewQueue(deps, { organizationId, limit: limitOf(req, 50, MAX_QUEUE_LIMIT) });
    res.json({
      data: items.map((item) => ({
        ...item,
        registration: internalRegistrationView(item.registration),
      })),
    });
  });
  return router;
}
