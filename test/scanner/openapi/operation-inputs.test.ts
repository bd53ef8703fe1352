import { expect } from 'chai';
import { describeInput, operationInputs, withInput, type Operation } from '../../../scanner/api.js';
import type { OpenApiDocument } from '../../../scanner/openapi/load-document.js';
import { operationsFromDocument } from '../../../scanner/openapi/operations.js';

const document = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  servers: [{ url: 'https://api.example.com/v1' }],
  components: {
    schemas: {
      Address: { type: 'object', properties: { city: { type: 'string', example: 'Oslo' } } },
    },
  },
  paths: {
    '/reports': {
      get: {
        parameters: [
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['csv', 'pdf'] } },
          { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', example: 'acme' } },
          { name: 'X-Forwarded-Host', in: 'header', schema: { type: 'string' } },
          { name: 'theme', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/orders': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['note'],
                properties: {
                  note: { type: 'string' },
                  shipTo: { $ref: '#/components/schemas/Address' },
                  items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'created' } },
      },
    },
    '/search': {
      post: {
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: { q: { type: 'string', example: 'lamp' }, page: { type: 'integer' } },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/avatars': {
      post: {
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { caption: { type: 'string', example: 'me' } } },
            },
          },
        },
        responses: { '201': { description: 'ok' } },
      },
    },
  },
} as unknown as OpenApiDocument;

const operations = operationsFromDocument(
  { document, source: 'inline.json', remote: false },
  { credentials: { byScheme: {} } },
);
const byId = (id: string): Operation => operations.find((op) => op.id === id)!;
const described = (op: Operation): string[] =>
  operationInputs(op).map((i) => `${describeInput(i)}${i.sent ? '' : ' (unsent)'}`);

describe('OpenAPI operations declare every input the enumeration offers (scanner/openapi/operations.ts)', () => {
  it('declares header and cookie parameters, sending the required ones', () => {
    const reports = byId('GET /reports');
    expect(reports.headers['X-Tenant']).to.deep.equal(['acme']);
    expect(described(reports)).to.deep.equal([
      'header X-Tenant',
      'query format (unsent)',
      'header X-Forwarded-Host (unsent)',
      'cookie theme (unsent)',
    ]);
    expect(operationInputs(reports).find((i) => i.name === 'format')?.example).to.equal('csv');
  });

  it('declares nested JSON properties at their pointers, array items included', () => {
    const orders = byId('POST /orders');
    expect(JSON.parse(orders.body!)).to.deep.equal({
      note: 'test',
      shipTo: { city: 'Oslo' },
      items: [{ sku: 'test' }],
    });
    expect(described(orders)).to.deep.equal(['body note', 'body shipTo.city', 'body items.0.sku']);
    expect(orders.inputs?.find((i) => i.name === 'city')?.pointer).to.deep.equal(['shipTo', 'city']);
  });

  it('writes form and multipart bodies from the schema, with their Content-Type, and sends them changed', () => {
    const search = byId('POST /search');
    expect(search.headers['Content-Type']).to.deep.equal(['application/x-www-form-urlencoded']);
    expect(search.body).to.equal('q=lamp&page=1');
    const q = operationInputs(search).find((i) => i.name === 'q')!;
    expect(withInput(search, q, "lamp'").body).to.equal('q=lamp%27&page=1');
    const avatars = byId('POST /avatars');
    expect(avatars.headers['Content-Type'][0]).to.match(/^multipart\/form-data; boundary=/);
    expect(described(avatars)).to.deep.equal(['body caption']);
  });
});
