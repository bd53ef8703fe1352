import { expect } from 'chai';
import { looksAdministrative } from '../../../checks/support/admin-operation.js';
import { operation } from './object-test-operation.js';

describe('checks/support/admin-operation', () => {
  it('finds administrative path segments', () => {
    for (const url of [
      'http://api.test/admin/users',
      'http://api.test/api/internal/jobs',
      'http://api.test/v1/management/keys',
    ]) {
      expect(looksAdministrative(operation({ url })), url).to.equal(true);
    }
  });

  it('finds administration in the operationId or a tag', () => {
    expect(
      looksAdministrative(operation({ url: 'http://api.test/users/1/role', operationId: 'adminSetRole' })),
    ).to.equal(true);
    expect(looksAdministrative(operation({ url: 'http://api.test/users/1/role', tags: ['Administration'] }))).to.equal(
      true,
    );
  });

  it('leaves ordinary operations alone, including words that merely contain "admin"-like letters', () => {
    for (const url of [
      'http://api.test/api/v1/organizations/org_1/registrations',
      'http://api.test/badminton/courts',
      'http://api.test/internals-docs',
    ]) {
      expect(looksAdministrative(operation({ url, operationId: 'listCourts' })), url).to.be.a('string');
    }
  });
});
