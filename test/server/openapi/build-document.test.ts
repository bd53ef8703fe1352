/** The OpenAPI document written from the route table (api-routes.ts) and the JSON Schemas of schemas/api/. */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fromRoot } from '../../../lib/project-root.js';
import { API_ROUTES, type ApiRouteTrees } from '../../../server/api-routes.js';
import type { ApiRoute } from '../../../server/http/api-route.js';
import { apiSchemaId } from '../../../server/http/api-schema-id.js';
import { buildOpenApiDocument } from '../../../server/openapi/build-document.js';
import { schemasById } from '../../../server/openapi/bundle-schemas.js';
import { loadOpenApiDocument } from '../../../server/openapi/document.js';

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { required: boolean };
  responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
};
type Document = { paths: Record<string, Record<string, Operation> & { parameters?: { name: string }[] }> };

const schemas = schemasById(fromRoot('schemas'));

/** A webhook create as issue #27 will add it: the only step is its entry in a tree. */
const webhookCreate: ApiRoute = {
  method: 'post',
  path: '/webhooks/:id/deliveries',
  scope: 'registrations:write',
  idempotent: true,
  handler: () => (_req, res) => res.status(201).end(),
  doc: {
    operationId: 'createDelivery',
    summary: 'A route the table does not have yet',
    tag: 'Webhooks',
    pathParams: { id: 'The webhook.' },
    body: { schema: apiSchemaId('action-request') },
    response: { status: 201, description: 'Made.', schema: apiSchemaId('registration'), headers: ['ETag'] },
  },
};

function withScoped(...routes: ApiRoute[]): ApiRouteTrees {
  return { ...API_ROUTES, organizationScoped: [...API_ROUTES.organizationScoped, ...routes] };
}

describe('the OpenAPI document built from the route table', () => {
  it('is what schemas/openapi.json holds (after changing a route or a schema, run `npm run openapi`)', () => {
    const committed = JSON.parse(readFileSync(fromRoot('schemas', 'openapi.json'), 'utf8')) as unknown;
    expect(
      JSON.stringify(committed) === JSON.stringify(loadOpenApiDocument()),
      'schemas/openapi.json differs from the routes and schemas: run `npm run openapi` and commit the result',
    ).to.equal(true);
  });

  it('documents every route of both trees under its path template, with its operationId and scope', () => {
    const document = loadOpenApiDocument() as Document;
    const trees = [
      ['', API_ROUTES.topLevel],
      ['/organizations/{organizationId}', API_ROUTES.organizationScoped],
    ] as const;
    let operations = 0;
    for (const [prefix, routes] of trees) {
      for (const route of routes) {
        const template = prefix + route.path.replace(/:(\w+)/g, '{$1}');
        const operation = document.paths[template]?.[route.method];
        expect(operation, `${route.method} ${template}`).to.not.equal(undefined);
        expect(operation?.operationId).to.equal(route.doc.operationId);
        expect(operation?.security).to.deep.equal([{ bearerAuth: [route.scope] }]);
        operations += 1;
      }
    }
    const documented = Object.values(document.paths).flatMap((item) =>
      Object.keys(item).filter((key) => key !== 'parameters'),
    );
    expect(documented).to.have.length(operations);
  });

  it('documents a route added to a tree with the parameters, body, headers and errors its declaration implies', () => {
    const document = buildOpenApiDocument(withScoped(webhookCreate), schemas) as Document;
    const item = document.paths['/organizations/{organizationId}/webhooks/{id}/deliveries'];
    const operation = item?.post;
    expect(item?.parameters?.map((p) => p.name)).to.deep.equal(['organizationId', 'id']);
    expect(operation.parameters?.map((p) => p.name)).to.deep.equal(['Idempotency-Key']);
    expect(operation.requestBody?.required).to.equal(true);
    expect(Object.keys(operation.responses)).to.deep.equal(
      ['201', '400', '401', '403', '404', '405', '409', '413', '415', '422', '429', '500', '503'].sort(),
    );
    expect(Object.keys(operation.responses['201']?.headers ?? {})).to.deep.equal([
      'Location',
      'Idempotent-Replayed',
      'ETag',
      'RateLimit',
      'RateLimit-Policy',
    ]);
    expect((document as unknown as { tags: { name: string }[] }).tags.at(-1)).to.deep.equal({ name: 'Webhooks' });
  });

  it('refuses a route whose path parameter has no description', () => {
    const undescribed = { ...webhookCreate, doc: { ...webhookCreate.doc, pathParams: {} } };
    expect(() => buildOpenApiDocument(withScoped(undescribed), schemas)).to.throw(
      'path parameter :id needs one description in doc.pathParams of createDelivery',
    );
  });

  it('refuses two routes with one operationId, and the same method twice on a path', () => {
    const again = { ...webhookCreate, path: '/webhooks' };
    expect(() => buildOpenApiDocument(withScoped(webhookCreate, again), schemas)).to.throw(
      'operationId used twice: createDelivery',
    );
    const twice = { ...webhookCreate, doc: { ...webhookCreate.doc, operationId: 'another' } };
    expect(() => buildOpenApiDocument(withScoped(webhookCreate, twice), schemas)).to.throw(
      'POST /organizations/{organizationId}/webhooks/{id}/deliveries is declared twice',
    );
  });

  it('refuses a body schema that is not in schemas/', () => {
    const unknown = {
      ...webhookCreate,
      doc: { ...webhookCreate.doc, body: { schema: apiSchemaId('no-such-resource') } },
    };
    expect(() => buildOpenApiDocument(withScoped(unknown), schemas)).to.throw(
      'OpenAPI document refers to unknown schema https://gatehouse.dev/schemas/api/no-such-resource.schema.json',
    );
  });
});
