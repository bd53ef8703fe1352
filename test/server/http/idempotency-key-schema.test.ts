/** The OpenAPI document's Idempotency-Key schema accepts exactly the keys the service accepts. */
import { expect } from 'chai';
import fc from 'fast-check';
import { parseIdempotencyKey } from '../../../server/http/idempotency.js';
import { loadOpenApiDocument } from '../../../server/openapi/document.js';

type Parameter = { name: string; schema: { pattern: string; minLength: number; maxLength: number } };

function idempotencySchemas(): Parameter['schema'][] {
  const doc = loadOpenApiDocument() as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
  return Object.values(doc.paths).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      (op.parameters ?? []).filter((p) => p.name === 'Idempotency-Key').map((p) => p.schema),
    ),
  );
}

function acceptedByService(key: string): boolean {
  try {
    parseIdempotencyKey(key);
    return true;
  } catch {
    return false;
  }
}

describe('the Idempotency-Key schema in the OpenAPI document', () => {
  const schemas = idempotencySchemas();

  it('is declared on every create operation', () => {
    expect(schemas.length).to.be.at.least(2);
  });

  it('agrees with the service on random keys, quoted or bare, of every length around the bounds', () => {
    const ascii = fc.string({
      unit: fc.integer({ min: 0x00, max: 0x7f }).map((c) => String.fromCharCode(c)),
      minLength: 0,
      maxLength: 260,
    });
    const visible = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 6,
      maxLength: 258,
    });
    // HTTP strips a header value's surrounding whitespace before either side sees it.
    const key = fc
      .oneof(
        ascii,
        visible,
        visible.map((k) => `"${k}"`),
        fc.string({ unit: 'binary', maxLength: 20 }),
      )
      .filter((k) => k === k.trim());
    for (const schema of schemas) {
      const pattern = new RegExp(schema.pattern, 'u');
      fc.assert(
        fc.property(key, (k) => {
          const bySchema = pattern.test(k) && [...k].length >= schema.minLength && [...k].length <= schema.maxLength;
          expect(bySchema, JSON.stringify(k)).to.equal(acceptedByService(k));
        }),
        { numRuns: 2000 },
      );
    }
  });
});
