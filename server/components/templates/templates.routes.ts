/** GET /templates and /templates/:templateId: the platform's registration templates, read-only. */
import { Router } from 'express';
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { methodNotAllowed } from '../../middleware/method-not-allowed.js';
import { requireScope } from '../../middleware/require-scope.js';
import { sendPlatformDataList } from '../policy-profiles/platform-data-list.js';
import { findTemplate, TEMPLATES } from './templates.data.js';

export function createTemplatesRouter(deps: Pick<ApiDeps, 'config'>): Router {
  const router = Router();
  router
    .route('/templates')
    .get(requireScope('registrations:read'), (req, res) => {
      sendPlatformDataList(req, res, deps.config, 'templates', TEMPLATES);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route('/templates/:templateId')
    .get(requireScope('registrations:read'), (req, res) => {
      const template = findTemplate(req.params.templateId);
      if (!template) throw apiError('not_found', 'No such template.');
      res.json(template);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
