import { expect } from 'chai';
import { operationClass } from '../../scanner/operation-class.js';

const classOf = (method: string, path: string, names: { operationId?: string; summary?: string } = {}) =>
  operationClass({ method, path, ...names });

describe('operationClass (scanner/operation-class.ts)', () => {
  it('calls GET, HEAD and OPTIONS reads', () => {
    expect(['GET', 'head', 'OPTIONS'].map((m) => classOf(m, '/api/products/{id}'))).to.deep.equal([
      'read',
      'read',
      'read',
    ]);
  });

  it('calls POST, PUT and PATCH writes', () => {
    expect(['POST', 'PUT', 'patch'].map((m) => classOf(m, '/api/users/{id}'))).to.deep.equal([
      'write',
      'write',
      'write',
    ]);
  });

  it('calls every DELETE destructive, whatever its path', () => {
    expect(classOf('DELETE', '/api/session')).to.equal('destructive');
  });

  it('calls a GET that resets the database destructive, however the path spells it', () => {
    for (const path of ['/reset-db', '/api/resetdb', '/admin/factory_reset', '/debug/dropTables', '/api/v1/truncate']) {
      expect(classOf('GET', path), path).to.equal('destructive');
    }
  });

  it('reads state-wiping verbs in the operationId and the summary too', () => {
    expect(classOf('POST', '/api/maintenance', { operationId: 'purgeCache' })).to.equal('destructive');
    expect(classOf('POST', '/api/maintenance', { summary: 'Wipe all demo data' })).to.equal('destructive');
    expect(classOf('POST', '/api/admin', { summary: 'Restart the service' })).to.equal('destructive');
    expect(classOf('POST', '/api/users/{id}/remove')).to.equal('destructive');
  });

  it('calls create/init/seed/populate destructive only when they set up a database', () => {
    expect(classOf('POST', '/api/init-db')).to.equal('destructive');
    expect(classOf('POST', '/setup', { summary: 'Create the database schema' })).to.equal('destructive');
    expect(classOf('POST', '/api/seed')).to.equal('destructive');
    expect(classOf('POST', '/api/users', { operationId: 'createUser', summary: 'Create a user' })).to.equal('write');
    expect(classOf('POST', '/api/init', { summary: 'Start a checkout' })).to.equal('write');
  });

  it('calls logout and token revocation destructive: they end the scan identity', () => {
    expect(classOf('POST', '/api/logout')).to.equal('destructive');
    expect(classOf('POST', '/oauth/revoke')).to.equal('destructive');
  });

  it('does not mistake words that merely contain a verb for it', () => {
    expect(classOf('GET', '/api/deleted-items')).to.equal('read');
    expect(classOf('GET', '/api/dropdowns')).to.equal('read');
    expect(classOf('GET', '/api/resets-history', { summary: 'List password changes' })).to.equal('read');
    expect(classOf('POST', '/api/database-backups', { operationId: 'createDatabaseBackup' })).to.equal('write');
  });
});
