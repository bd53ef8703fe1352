import { expect } from 'chai';
import { copyPlain } from '../../lib/copy-plain.js';

describe('copyPlain', () => {
  const record = () => ({
    id: 'reg_1',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    config: { redirectUris: ['https://app.example.com/cb'], nested: { deep: [1, { two: 2 }] }, empty: {} },
    revision: 3,
    flag: false,
    none: null,
    missing: undefined,
  });

  it('copies plain objects, arrays and Dates all the way down, equal to the original and sharing nothing', () => {
    const original = record();
    const copy = copyPlain(original);
    expect(copy).to.deep.equal(original);
    expect(copy).to.deep.equal(structuredClone(original));
    copy.config.redirectUris.push('https://other.example.com/cb');
    (copy.config.nested.deep[1] as { two: number }).two = 3;
    copy.createdAt.setFullYear(2000);
    expect(original).to.deep.equal(record());
  });

  it('keeps keys whose value is undefined, as structuredClone does', () => {
    expect(Object.keys(copyPlain(record()))).to.include('missing');
  });

  it('copies what is not a plain value with structuredClone', () => {
    const original = { seen: new Map([['a', 1]]), bytes: new Uint8Array([1, 2]) };
    const copy = copyPlain(original);
    expect(copy.seen).to.be.instanceOf(Map).and.not.equal(original.seen);
    expect([...copy.seen]).to.deep.equal([['a', 1]]);
    expect(copy.bytes).to.be.instanceOf(Uint8Array).and.not.equal(original.bytes);
  });

  it('copies objects without a prototype', () => {
    const original = Object.assign(Object.create(null) as Record<string, unknown>, { a: { b: 1 } });
    const copy = copyPlain(original);
    expect(copy.a).to.deep.equal({ b: 1 });
    expect(copy.a).to.not.equal(original.a);
  });
});
