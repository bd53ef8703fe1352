/** GET /templates and /templates/:id: the platform's registration templates, read-only. */
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { apiError } from '../../errors.js';
import { sendPlatformDataList } from '../policy-profiles/platform-data-list.js';
import { findTemplate, TEMPLATES } from './templates.data.js';

const TEMPLATE_SCHEMA = apiSchemaId('template');

export const templateRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/templates',
    scope: 'registrations:read',
    handler: (deps) => (req, res) => sendPlatformDataList(req, res, deps.config, 'templates', TEMPLATES),
    doc: {
      operationId: 'listTemplates',
      summary: 'List templates',
      tag: 'Templates',
      list: {},
      response: { description: 'The templates.', schema: TEMPLATE_SCHEMA },
    },
  },
  {
    method: 'get',
    path: '/templates/:id',
    scope: 'registrations:read',
    handler: () => (req, res) => {
      const template = findTemplate(String(req.params.id));
      if (!template) throw apiError('not_found', 'No such template.');
      res.json(template);
    },
    doc: {
      operationId: 'getTemplate',
      summary: 'Read a template',
      tag: 'Templates',
      pathParams: { id: 'The template (`tpl_…`).' },
      response: { description: 'The template.', schema: TEMPLATE_SCHEMA },
    },
  },
];
