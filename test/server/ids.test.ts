import { expect } from 'chai';
import { isId, newId } from '../../server/ids.js';

describe('ids', () => {
  it('makes ids of the prefix, an underscore and 22 base62 characters', () => {
    expect(newId('reg')).to.match(/^reg_[0-9A-Za-z]{22}$/);
  });

  it('never repeats an id in ten thousand draws', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('org')));
    expect(ids.size).to.equal(10_000);
  });

  it('accepts its own ids and seeded ids of at least 16 characters', () => {
    expect(isId('org', newId('org'))).to.equal(true);
    expect(isId('org', 'org_demo1234567890abcd')).to.equal(true);
  });

  it('rejects other prefixes, short ids, foreign characters and non-strings', () => {
    expect(isId('org', newId('reg'))).to.equal(false);
    expect(isId('org', 'org_short')).to.equal(false);
    expect(isId('org', 'org_demo1234567890abc$')).to.equal(false);
    expect(isId('org', 'org_demo1234567890abcd\n')).to.equal(false);
    expect(isId('org', { $ne: null })).to.equal(false);
    expect(isId('org', undefined)).to.equal(false);
  });

  it('refuses a malformed prefix', () => {
    expect(() => newId('Org-')).to.throw(TypeError);
  });
});
