/**
 * The description of the demo's input-handling operations (diagnostics-routes.ts, content-routes.ts): the block of
 * paths openapi.ts spreads into its own, so each route file's operations are described beside one another.
 */
export function inputsPaths(): Record<string, unknown> {
  const json = (schema: unknown, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
  const error = json({ $ref: '#/components/schemas/Error' }, 'Error');
  const text = (properties: Record<string, unknown>, required: string[], example: Record<string, unknown>) => ({
    required: true,
    content: { 'application/json': { schema: { type: 'object', required, properties }, example } },
  });
  return {
    '/api/admin/latency': {
      get: {
        operationId: 'hostLatency',
        summary: 'Staff statistics: latency to a host',
        tags: ['admin'],
        parameters: [{ name: 'host', in: 'query', required: true, schema: { type: 'string', example: 'example.com' } }],
        responses: {
          200: json({ type: 'object', properties: { host: { type: 'string' }, output: { type: 'string' } } }),
          400: error,
          401: error,
          403: error,
        },
      },
    },
    '/api/mirrors/check': {
      post: {
        operationId: 'checkMirror',
        summary: 'Queue a DNS check of a download mirror',
        requestBody: text({ mirror: { type: 'string' } }, ['mirror'], { mirror: 'mirror.example.com' }),
        responses: {
          202: json({ type: 'object', properties: { status: { type: 'string' } } }),
          400: error,
          401: error,
        },
      },
    },
    '/api/download': {
      get: {
        operationId: 'downloadDocument',
        summary: 'A document of the shop, by file name',
        parameters: [{ name: 'file', in: 'query', required: true, schema: { type: 'string', example: 'welcome.txt' } }],
        responses: {
          200: { description: 'The document', content: { 'text/plain': { schema: { type: 'string' } } } },
          400: error,
          401: error,
          404: error,
        },
      },
    },
    '/api/cards/preview': {
      post: {
        operationId: 'previewCard',
        summary: "Preview a greeting card's text",
        requestBody: text({ recipient: { type: 'string' }, message: { type: 'string' } }, ['recipient', 'message'], {
          recipient: 'Bob',
          message: 'Happy birthday, {{recipient}}!',
        }),
        responses: {
          200: json({ type: 'object', properties: { preview: { type: 'string' } } }),
          400: error,
          401: error,
        },
      },
    },
    '/api/continue': {
      get: {
        operationId: 'continueTo',
        summary: 'Go on to the next step',
        security: [],
        parameters: [{ name: 'next', in: 'query', required: true, schema: { type: 'string', example: '/api/health' } }],
        responses: { 302: { description: 'Redirect to the next step' } },
      },
    },
  };
}
