/**
 * The description of the demo's staff operations (staff-routes.ts, catalog-admin-routes.ts): the block of paths
 * openapi.ts spreads into its own, and the create its `/api/products` path adds. The role update's example gives the
 * admin role, as a real description's would.
 */
export function staffPaths(): Record<string, unknown> {
  const json = (schema: unknown, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
  const error = json({ $ref: '#/components/schemas/Error' }, 'Error');
  const body = (properties: Record<string, unknown>, required: string[]) => ({
    required: true,
    content: { 'application/json': { schema: { type: 'object', required, properties } } },
  });
  // On each operation rather than the path item: test/fixtures/openapi/swagger-2-copy.ts copies operations only.
  const productId = { name: 'productId', in: 'path', required: true, schema: { type: 'integer', example: 1 } };
  return {
    '/api/products/{productId}': {
      get: {
        operationId: 'getProduct',
        parameters: [productId],
        summary: 'One product',
        security: [],
        responses: { 200: json({ $ref: '#/components/schemas/Product' }), 404: error },
      },
      delete: {
        operationId: 'deleteProduct',
        parameters: [productId],
        summary: 'Staff: remove a product from the catalogue',
        tags: ['admin'],
        responses: { 204: { description: 'Deleted' }, 401: error, 403: error, 404: error },
      },
    },
    '/api/user-roles': {
      put: {
        operationId: 'assignRole',
        summary: "Set a user's role",
        requestBody: body(
          {
            username: { type: 'string', example: 'carol' },
            role: { type: 'string', enum: ['user', 'admin'], example: 'admin' },
          },
          ['username', 'role'],
        ),
        responses: {
          200: json({ type: 'object', properties: { username: { type: 'string' }, role: { type: 'string' } } }),
          400: error,
          401: error,
          403: error,
          404: error,
        },
      },
    },
    '/api/staff/imports': {
      post: {
        operationId: 'importFeed',
        summary: 'Staff: import a product feed from a URL',
        tags: ['staff'],
        requestBody: body(
          { url: { type: 'string', format: 'uri', example: 'https://feeds.example.com/products.csv' } },
          ['url'],
        ),
        responses: {
          200: json({ type: 'object', properties: { url: { type: 'string' }, status: { type: 'integer' } } }),
          202: json({ type: 'object', properties: { url: { type: 'string' }, status: { type: 'string' } } }),
          400: error,
          401: error,
          403: error,
        },
      },
    },
    '/api/staff/traceroute': {
      get: {
        operationId: 'traceHost',
        summary: 'Staff: network path to a host',
        tags: ['staff'],
        parameters: [{ name: 'host', in: 'query', required: true, schema: { type: 'string', example: 'example.com' } }],
        responses: {
          200: json({ type: 'object', properties: { host: { type: 'string' }, output: { type: 'string' } } }),
          400: error,
          401: error,
          403: error,
        },
      },
    },
  };
}

/** `POST /api/products`, beside the public list openapi.ts describes at the same path. */
export function productCreate(): Record<string, unknown> {
  const json = (schema: unknown, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
  const error = json({ $ref: '#/components/schemas/Error' }, 'Error');
  return {
    post: {
      operationId: 'createProduct',
      summary: 'Staff: add a product to the catalogue',
      tags: ['admin'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['name', 'category', 'price'],
              properties: {
                name: { type: 'string', example: 'Desk Lamp' },
                category: { type: 'string', pattern: '^[a-z]{1,32}$', example: 'books' },
                price: { type: 'number', example: 29 },
              },
            },
          },
        },
      },
      responses: { 201: json({ $ref: '#/components/schemas/Product' }, 'Created'), 400: error, 401: error, 403: error },
    },
  };
}
