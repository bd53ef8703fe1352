import { expect } from 'chai';
import { responseSchemas } from '../../../scanner/openapi/response-schemas.js';

const document = {
  components: {
    schemas: {
      Account: {
        type: 'object',
        properties: { id: { type: 'string' }, manager: { $ref: '#/components/schemas/Account' } },
      },
    },
    responses: {
      NotFound: { description: 'no', content: { 'application/problem+json': { schema: { type: 'object' } } } },
    },
  },
};

describe('responseSchemas (scanner/openapi/response-schemas.ts)', () => {
  it('maps each declared status to its JSON schema with $refs inlined, and cuts recursion', () => {
    const schemas = responseSchemas(document, {
      200: {
        description: 'ok',
        content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Account' } } } },
      },
      404: { $ref: '#/components/responses/NotFound' },
      204: { description: 'nothing' },
    }) as Record<string, { type: string; items: { properties: { manager: { properties: Record<string, unknown> } } } }>;
    expect(Object.keys(schemas)).to.deep.equal(['200', '404']);
    expect(schemas['200'].items.properties.manager.properties).to.have.keys('id', 'manager');
    expect(JSON.stringify(schemas['200']).length, 'recursion cut').to.be.lessThan(2000);
    expect(schemas['404']).to.deep.equal({ type: 'object' });
  });

  it('is undefined when no answer declares JSON', () => {
    expect(
      responseSchemas(document, {
        200: { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } } } },
      }),
    ).to.equal(undefined);
  });
});
