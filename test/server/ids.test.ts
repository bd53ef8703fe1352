import { expect } from 'chai';
import { isId, newId, newOrderedId } from '../../server/ids.js';

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

  it('makes ordered ids that sort in the order they were made, a thousand within the same milliseconds included', () => {
    const ids = Array.from({ length: 1000 }, () => newOrderedId('aud'));
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(1000);
    expect(ids.every((id) => isId('aud', id))).to.equal(true);
  });

  it('keeps ordered ids increasing when the clock goes back', () => {
    const realNow = Date.now;
    const first = newOrderedId('aud');
    try {
      Date.now = () => realNow() - 60_000;
      expect(newOrderedId('aud') > first).to.equal(true);
    } finally {
      Date.now = realNow;
    }
  });
});
