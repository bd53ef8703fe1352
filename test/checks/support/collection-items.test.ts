import { expect } from 'chai';
import { collectionIds, itemsNameOwner } from '../../../checks/support/collection-items.js';
import { lastSegmentNamesObject } from '../../../checks/support/object-reference.js';

describe('checks/support/collection-items and named objects', () => {
  it('reads the ids of a bare or wrapped list of objects, and nothing from a single object or text', () => {
    expect(collectionIds(JSON.stringify([{ id: 1 }, { id: 'b' }]))).to.deep.equal(['1', 'b']);
    expect(collectionIds(JSON.stringify({ total: 2, items: [{ _id: 'x' }, { uuid: 'y' }] }))).to.deep.equal(['x', 'y']);
    expect(collectionIds(JSON.stringify({ id: 'me', roles: [{ id: 'r' }] }))).to.equal(undefined);
    expect(collectionIds(JSON.stringify({ names: ['a', 'b'] }))).to.equal(undefined);
    expect(collectionIds('<html>')).to.equal(undefined);
  });

  it('tells a list of owned objects from a directory', () => {
    expect(
      itemsNameOwner(
        JSON.stringify({
          items: [
            { id: 'o1', owner: 'alice' },
            { id: 'o2', userId: 'u2' },
          ],
        }),
      ),
    ).to.equal(true);
    expect(
      itemsNameOwner(
        JSON.stringify([
          { id: 'u1', username: 'alice' },
          { id: 'u2', username: 'bob' },
        ]),
      ),
    ).to.equal(false);
  });

  it('takes a name under a plural segment as an object, but not views such as /users/me or /orders/search', () => {
    for (const url of [
      'http://t/users/alice',
      'http://t/api/repos/gatehouse',
      'http://t/files/report.pdf',
      'http://t/orders/42',
    ])
      expect(lastSegmentNamesObject(url), url).to.equal(true);
    for (const url of [
      'http://t/users/me',
      'http://t/orders/search',
      'http://t/api/v1',
      'http://t/orders',
      'http://t/profile/settings',
      'http://t/apis/v2',
    ])
      expect(lastSegmentNamesObject(url), url).to.equal(false);
  });
});
