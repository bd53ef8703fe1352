/** Body validation: every problem named with its path, duplicates folded, and a bounded answer for huge bodies. */
import { expect } from 'chai';
import { AppError } from '../../../lib/app-error.js';
import { MAX_FIELD_ERRORS, validateBody } from '../../../server/http/validate-body.js';
import { REGISTRATION_UPDATE_SCHEMA } from '../../../server/components/registrations/registrations.service.js';

function refusal(body: unknown): AppError {
  try {
    validateBody(REGISTRATION_UPDATE_SCHEMA, body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('validateBody', () => {
  it('returns a valid body as it is', () => {
    const body = { name: 'ok', config: { redirectUris: ['https://app.example.com/cb'] } };
    expect(validateBody(REGISTRATION_UPDATE_SCHEMA, body)).to.equal(body);
  });

  it('names every problem with a dotted, indexed path', () => {
    const error = refusal({ name: 7, status: 'active', config: { redirectUris: ['https://a.example.com', 3] } });
    expect([error.status, error.code]).to.deep.equal([422, 'validation_failed']);
    expect(error.fields?.map((f) => f.path).sort()).to.deep.equal(['config.redirectUris[1]', 'name', 'status']);
  });

  it(`answers a body with thousands of wrong items with ${MAX_FIELD_ERRORS} problems and a count of the rest`, () => {
    const error = refusal({
      config: { contacts: Array.from({ length: 90 }, () => 1), scopes: Array.from({ length: 90 }, () => 2) },
    });
    expect(error.fields).to.have.length(MAX_FIELD_ERRORS + 1);
    expect(error.fields?.at(-1)?.path).to.equal('');
    expect(error.fields?.at(-1)?.message).to.match(/^and [89][0-9] more problems$/);
  });
});
