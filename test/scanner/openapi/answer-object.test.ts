import { expect } from 'chai';
import { firstObject, idFor } from '../../../scanner/openapi/answer-object.js';

describe('the object of an answer and its id (scanner/openapi/answer-object.ts)', () => {
  it('reads the first object of a list, of a wrapped list, or the object itself', () => {
    expect(firstObject([{ id: 1 }, { id: 2 }])).to.deep.equal({ id: 1 });
    expect(firstObject({ total: 2, items: [{ id: 'a' }] })).to.deep.equal({ id: 'a' });
    expect(firstObject({ id: 'o-1', lines: [{ id: 'l-1' }] })).to.deep.equal({ id: 'o-1', lines: [{ id: 'l-1' }] });
    expect(firstObject([])).to.equal(undefined);
    expect(firstObject('text')).to.equal(undefined);
  });

  it('prefers the field named like the parameter, then id, uuid and _id', () => {
    expect(idFor({ id: 'x', orderId: 'o-9' }, 'orderId')).to.equal('o-9');
    expect(idFor({ uuid: 'u-1' }, 'orderId')).to.equal('u-1');
    expect(idFor({ _id: 42 }, 'orderId')).to.equal('42');
    expect(idFor({ name: 'n' }, 'orderId')).to.equal(undefined);
  });
});
