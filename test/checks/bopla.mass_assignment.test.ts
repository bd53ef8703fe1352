import { expect } from 'chai';
import type { Target } from '../fixtures/targets/start-target.js';
import { startUsersTarget, type User } from '../fixtures/targets/users-target.js';
import { resultOf, scanTarget } from '../support/scan.js';
import { bearer, expectResult } from './expect-result.js';
import { scanDocument } from './scan-document.js';

const ID = 'bopla.mass_assignment';
const ISSUE = 'broken_object_property_level_authorization.mass_assignment';
const alice = { ...bearer('alice-token'), 'Content-Type': 'application/json' };

describe('bopla.mass_assignment', () => {
  let target: (Target & { users: Map<string, User> }) | undefined;
  afterEach(async () => target?.close());

  it('fails with …mass_assignment (8.6) when a create keeps isAdmin and role, and deletes what it created', async () => {
    target = await startUsersTarget({ bindsEverything: true });
    const outcome = await scanTarget(target.url('/users'), {
      checks: [ID],
      method: 'POST',
      headers: alice,
      body: JSON.stringify({ name: 'bob', email: 'bob@example.com' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 8.6 }, requests: 6 });
    const detail = resultOf(outcome, ID).findings[0].detail!;
    expect(detail)
      .to.include('isAdmin=true')
      .and.include('role="admin"')
      .and.match(/removed \(DELETE .*\/users\/u\d: 204\)/);
    expect([...target.users.keys()], 'only alice is left').to.deep.equal(['u1']);
    const attack = resultOf(outcome, ID).attempts[0].request.body!;
    expect(JSON.parse(attack))
      .to.include({ isAdmin: true, role: 'admin', name: JSON.parse(attack).name })
      .and.have.property('email')
      .that.match(/^bob\+gh[0-9a-f]{8}@example\.com$/);
  });

  it('passes with three requests when a create ignores the extra properties (and still deletes its object)', async () => {
    target = await startUsersTarget({ bindsEverything: false });
    const outcome = await scanTarget(target.url('/users'), {
      checks: [ID],
      method: 'POST',
      headers: alice,
      body: JSON.stringify({ name: 'bob', email: 'bob@example.com' }),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
    expect([...target.users.keys()]).to.deep.equal(['u1']);
  });

  it('reads a registration back as the new user with the token it was given', async () => {
    target = await startUsersTarget({ bindsEverything: true });
    const outcome = await scanTarget(target.url('/register'), {
      checks: [ID],
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'carol@example.com', password: 'x' }),
    });
    // curl scans know no read operation: Location or <url>/<id> only, so a registration without either is skipped.
    expectResult(outcome, ID, { status: 'skipped', reason: /cannot be read back/ });
  });

  it('fails on a profile update that keeps role=admin, and restores the account it changed', async () => {
    target = await startUsersTarget({ bindsEverything: true });
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      method: 'PATCH',
      headers: alice,
      body: JSON.stringify({ name: 'alice' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 8.6 }, requests: 4 });
    expect(resultOf(outcome, ID).findings[0].detail).to.match(/restored to the values read before \(200\)/);
    expect(target.users.get('u1')).to.include({ role: 'user', isAdmin: false });
  });

  it('finds the caller in an update whose read lists every account, by the id the update answers with', async () => {
    target = await startUsersTarget({ bindsEverything: true });
    const outcome = await scanTarget(target.url('/account'), {
      checks: [ID],
      method: 'PATCH',
      headers: alice,
      body: JSON.stringify({ name: 'alice' }),
    });
    expectResult(outcome, ID, { status: 'failed', issues: { [ISSUE]: 8.6 }, requests: 4 });
    expect(target.users.get('u1')).to.include({ role: 'user', isAdmin: false });
  });

  it('passes with three requests on a profile update that ignores them', async () => {
    target = await startUsersTarget({ bindsEverything: false });
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      method: 'PATCH',
      headers: alice,
      body: JSON.stringify({ name: 'alice' }),
    });
    expectResult(outcome, ID, { status: 'passed', requests: 3 });
  });

  it('leaves alone properties the client sends as given, and reads, deletes and resets nothing destructive', async () => {
    target = await startUsersTarget({ bindsEverything: true });
    const outcome = await scanTarget(target.url('/users/u1/reset'), {
      checks: [ID],
      method: 'POST',
      headers: alice,
      body: '{}',
    });
    expectResult(outcome, ID, { status: 'skipped', reason: /destructive/, requests: 0 });
  });
});

describe('bopla.mass_assignment in an OpenAPI scan', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'users', version: '1' },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Registration: {
          type: 'object',
          properties: {
            email: { type: 'string', format: 'email', example: 'dave@example.com' },
            password: { type: 'string' },
            memberSince: { type: 'string', format: 'date-time', readOnly: true },
          },
        },
        User: {
          type: 'object',
          properties: { id: { type: 'string', readOnly: true }, email: { type: 'string' }, tier: { type: 'integer' } },
        },
      },
    },
    paths: {
      '/register': {
        post: {
          operationId: 'register',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Registration' } } } },
          responses: {
            '201': {
              description: 'created',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
            },
          },
        },
      },
      '/me': {
        get: {
          security: [{ bearer: [] }],
          responses: {
            '200': {
              description: 'me',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
            },
          },
        },
      },
    },
  };
  let target: (Target & { users: Map<string, User>; tokens: Map<string, string> }) | undefined;
  afterEach(async () => target?.close());

  it('reads a registration back as the new user (GET /me with its token) and reports a readOnly property apart from privileges', async () => {
    target = await startUsersTarget({ bindsEverything: true });
    const outcome = await scanDocument(document, target.origin, {
      checks: [ID],
      credentials: { bearer: 'alice-token' },
      only: ['POST /register'],
    });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { [ISSUE]: 8.6, 'broken_object_property_level_authorization.read_only_property': 5.3 },
    });
    const result = resultOf(outcome, ID);
    expect(result.findings.map((f) => f.detail).join('\n'))
      .to.include('memberSince="2001-02-03T04:05:06Z"')
      .and.include('as the new user');
    expect(result.attempts[1].request.method).to.equal('GET');
    expect(result.attempts[1].request.url).to.match(/\/me$/);
    expect(
      result.attempts[1].request.headers.authorization ?? result.attempts[1].request.headers.Authorization,
    ).to.match(/^Bearer tok-u\d+$/);
  });

  it('reads a registration back in the user list when there is no user read, and deletes nothing it cannot name alone', async () => {
    target = await startUsersTarget({ bindsEverything: true });
    const listed = {
      ...document,
      paths: {
        '/register': document.paths['/register'],
        '/users': { get: { security: [{ bearer: [] }], responses: { '200': { description: 'users' } } } },
      },
    };
    const outcome = await scanDocument(listed, target.origin, {
      checks: [ID],
      credentials: { bearer: 'alice-token' },
      only: ['POST /register'],
    });
    expectResult(outcome, ID, {
      status: 'failed',
      issues: { [ISSUE]: 8.6, 'broken_object_property_level_authorization.read_only_property': 5.3 },
    });
    const result = resultOf(outcome, ID);
    expect(result.attempts.map((a) => a.request.method)).to.not.include('DELETE');
    expect(result.findings[0].detail).to.match(/u\d+ not removed \(no URL names it alone\)/);
  });

  it('passes on the allow-listing twin', async () => {
    target = await startUsersTarget({ bindsEverything: false });
    const outcome = await scanDocument(document, target.origin, {
      checks: [ID],
      credentials: { bearer: 'alice-token' },
      only: ['POST /register'],
    });
    expectResult(outcome, ID, { status: 'passed' });
  });
});
