/**
 * Three operations whose input decides what the server reads, renders or redirects to:
 * - `GET /api/download?file=`: a document of the shop (demo/vulnerable-api/document-files.ts, in memory).
 *   Vulnerable twin: `../` and absolute paths read outside the documents folder, and the error shows the resolved
 *   path. Secure twin: the resolved path stays in the folder.
 * - `POST /api/cards/preview {"recipient", "message"}`: a greeting card's text. Vulnerable twin: the message is
 *   rendered as a template (demo/vulnerable-api/mini-template.ts), so `{{7*191}}` becomes 1337. Secure twin: only
 *   `{{recipient}}` is filled in; the rest stays as written.
 * - `GET /api/continue?next=`: where to go after a step. Vulnerable twin: redirects anywhere. Secure twin: only to a
 *   path of this API (`/…`, not `//…` or `/\…`), else to `/api/health`.
 */
import { Router } from 'express';
import { authenticate } from './authenticate.js';
import { readDocument } from './document-files.js';
import { fillPlaceholders, renderTemplate, TemplateError } from './mini-template.js';
import type { Store } from './store.js';

const LOCAL_PATH = /^\/(?![/\\])/;

export function contentRoutes(store: Store, secure: boolean): Router {
  const router = Router();
  router.get('/api/download', authenticate(store), (req, res) => {
    const file = typeof req.query.file === 'string' ? req.query.file : '';
    if (file === '') return void res.status(400).json({ error: 'file: a document name' });
    const read = readDocument(file, secure);
    if ('error' in read) return void res.status(read.status).json({ error: read.error });
    res.type('text/plain').send(read.content);
  });
  router.post('/api/cards/preview', authenticate(store), (req, res) => {
    const { recipient, message } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof recipient !== 'string' || typeof message !== 'string')
      return void res.status(400).json({ error: 'recipient and message: text' });
    const variables = { recipient };
    if (secure) return void res.json({ preview: fillPlaceholders(message, variables) });
    try {
      res.json({ preview: renderTemplate(message, variables) });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      res.status(500).json({ error: error.message });
    }
  });
  router.get('/api/continue', (req, res) => {
    const next = typeof req.query.next === 'string' ? req.query.next : '/api/health';
    res.redirect(302, secure && !LOCAL_PATH.test(next) ? '/api/health' : next);
  });
  return router;
}
