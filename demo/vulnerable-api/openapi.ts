/** The demo API's OpenAPI 3.1 description, served at `/openapi.json`; the same for both twins. */
import { inputsPaths } from './inputs-openapi.js';

export function openapiDocument(origin: string): Record<string, unknown> {
  const json = (schema: unknown, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
  const error = json({ $ref: '#/components/schemas/Error' }, 'Error');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse vulnerable demo API',
      version: '1.0.0',
      description:
        'A deliberately vulnerable API (and its secure twin with --secure) to learn the scanner on. Loopback only.',
    },
    servers: [{ url: origin }],
    security: [{ bearer: [] }],
    paths: {
      '/api/health': {
        get: {
          operationId: 'health',
          summary: 'Liveness',
          security: [],
          responses: { 200: json({ type: 'object', properties: { status: { type: 'string' } } }) },
        },
      },
      '/api/register': {
        post: {
          operationId: 'register',
          summary: 'Create an account',
          security: [],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Registration' } } },
          },
          responses: { 201: json({ $ref: '#/components/schemas/Account' }, 'Created'), 400: error, 409: error },
        },
      },
      '/api/login': {
        post: {
          operationId: 'login',
          summary: 'Sign in with a username and password',
          security: [],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Credentials' } } },
          },
          responses: { 200: json({ $ref: '#/components/schemas/Session' }), 401: error },
        },
      },
      '/api/products': {
        get: {
          operationId: 'listProducts',
          summary: 'Products of a category',
          security: [],
          parameters: [{ name: 'category', in: 'query', required: true, schema: { type: 'string', example: 'books' } }],
          responses: { 200: json({ type: 'array', items: { $ref: '#/components/schemas/Product' } }), 400: error },
        },
      },
      '/api/users': {
        get: {
          operationId: 'listUsers',
          summary: 'Who else is here (public profiles)',
          responses: { 200: json({ type: 'array', items: { $ref: '#/components/schemas/PublicUser' } }), 401: error },
        },
      },
      '/api/account': {
        get: {
          operationId: 'getAccount',
          summary: 'The signed-in account',
          responses: { 200: json({ $ref: '#/components/schemas/Account' }), 401: error },
        },
        patch: {
          operationId: 'updateAccount',
          summary: 'Change the email or display name',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/AccountUpdate' } } },
          },
          responses: { 200: json({ $ref: '#/components/schemas/Account' }), 400: error, 401: error },
        },
      },
      '/api/users/{userId}/orders': {
        get: {
          operationId: 'listUserOrders',
          summary: "A user's orders",
          parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: json({ type: 'array', items: { $ref: '#/components/schemas/Order' } }),
            401: error,
            404: error,
          },
        },
      },
      '/api/webhooks': {
        post: {
          operationId: 'createWebhook',
          summary: 'Register a webhook (sends a test delivery)',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookRequest' } } },
          },
          responses: { 201: json({ $ref: '#/components/schemas/Webhook' }, 'Created'), 400: error, 401: error },
        },
      },
      ...inputsPaths(),
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A token the demo printed at start, or one from POST /api/login.',
        },
      },
      schemas: {
        Error: { type: 'object', properties: { error: { type: 'string' } } },
        Registration: {
          type: 'object',
          required: ['username', 'email', 'password'],
          properties: {
            username: { type: 'string', pattern: '^[a-z0-9_]{3,32}$', example: 'carol' },
            email: { type: 'string', format: 'email', example: 'carol@example.com' },
            password: { type: 'string', format: 'password', example: 'correct-horse-battery' },
          },
        },
        Credentials: {
          type: 'object',
          required: ['username', 'password'],
          properties: {
            username: { type: 'string', example: 'carol' },
            password: { type: 'string', format: 'password', example: 'not-her-password' },
          },
        },
        Session: { type: 'object', properties: { token: { type: 'string' }, tokenType: { type: 'string' } } },
        PublicUser: { type: 'object', properties: { id: { type: 'string' }, username: { type: 'string' } } },
        Account: {
          type: 'object',
          properties: {
            id: { type: 'string', readOnly: true },
            username: { type: 'string' },
            email: { type: 'string', format: 'email' },
            displayName: { type: 'string' },
            role: { type: 'string', enum: ['user', 'admin'], readOnly: true },
            isAdmin: { type: 'boolean', readOnly: true },
          },
        },
        AccountUpdate: {
          type: 'object',
          properties: { email: { type: 'string', format: 'email' }, displayName: { type: 'string', example: 'Carol' } },
        },
        Product: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            name: { type: 'string' },
            category: { type: 'string' },
            price: { type: 'number' },
          },
        },
        Order: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            userId: { type: 'string' },
            item: { type: 'string' },
            total: { type: 'number' },
          },
        },
        WebhookRequest: {
          type: 'object',
          required: ['url'],
          properties: {
            url: { type: 'string', format: 'uri', example: 'https://hooks.example.com/orders' },
            event: { type: 'string', enum: ['order.created', 'order.paid'] },
          },
        },
        Webhook: {
          type: 'object',
          properties: { id: { type: 'string' }, url: { type: 'string' }, event: { type: 'string' } },
        },
      },
    },
  };
}
