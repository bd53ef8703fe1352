/**
 * Every endpoint's happy path (and its usual failures), each response checked against the served OpenAPI document.
 */
import { expect } from 'chai';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { loadOpenApiDocument } from '../../../server/openapi/document.js';
import { errorCodes } from '../../../server/errors.js';
import { readdirSync, readFileSync } from 'node:fs';
import { fromRoot } from '../../../lib/project-root.js';
import { validatorFor } from '../../../lib/json-schema.js';
import { decideRegistration } from '../../../server/components/registrations/review.service.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { expectConforms, NO_RATE_LIMITS, VALID_WEB_CONFIG } from './api-fixtures.js';

describe('the public API against its OpenAPI document', () => {
  let h: ServiceHarness;
  let org: Organization;
  let auth: string;
  let base: string;

  before(async () => {
    h = await startService({ env: NO_RATE_LIMITS });
    org = await h.createOrganization('pro', { isDefault: true });
    auth = `Bearer ${await h.token()}`;
    base = `/api/v1/organizations/${org.id}`;
  });
  after(async () => {
    await h.close();
  });

  it('serves the bundled document at /api/v1/openapi.json without authentication', async () => {
    const res = await h.request.get('/api/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(loadOpenApiDocument());
    expect(res.body.openapi).to.equal('3.1.0');
    expect(JSON.stringify(res.body)).to.not.match(/"\$ref":"https?:/);
  });

  it('compiles every request and response schema of schemas/api with the one Ajv instance', () => {
    const files = readdirSync(fromRoot('schemas', 'api')).filter((f) => f.endsWith('.schema.json'));
    expect(files.length).to.be.greaterThan(5);
    for (const file of files) {
      const { $id } = JSON.parse(readFileSync(fromRoot('schemas', 'api', file), 'utf8')) as { $id: string };
      expect($id, file).to.equal(`https://gatehouse.dev/schemas/api/${file}`);
      expect(() => validatorFor($id), file).to.not.throw();
    }
  });

  it('names every error code of server/errors.ts in the error responses (openapi/error-responses.ts writes them)', () => {
    const text = JSON.stringify(loadOpenApiDocument());
    const missing = Object.keys(errorCodes).filter((code) => !text.includes(`\`${code}\``));
    expect(missing).to.deep.equal([]);
  });

  it('gives every operation an operationId, a 2xx response and the error envelope for 4XX/5XX it documents', () => {
    const document = loadOpenApiDocument() as {
      paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'parameters') continue;
        expect(operation.operationId, `${method} ${path}`).to.be.a('string');
        expect(
          Object.keys(operation.responses ?? {}).some((s) => s.startsWith('2')),
          `${method} ${path}`,
        ).to.equal(true);
      }
    }
  });

  it('resolves every $ref and declares every path template parameter', () => {
    const document = loadOpenApiDocument();
    const refs: string[] = [];
    (function walk(node: unknown): void {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
      }
    })(document);
    const unresolved = refs.filter((ref) => {
      let node: unknown = document;
      for (const part of ref.replace(/^#\//, '').split('/'))
        node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      return !ref.startsWith('#/') || node === undefined;
    });
    expect(unresolved).to.deep.equal([]);
    for (const [path, item] of Object.entries(
      document.paths as Record<string, { parameters?: { name: string; in: string }[] }>,
    )) {
      const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (item.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect(declared, path).to.deep.equal(placeholders);
    }
  });

  it('documents every organization and platform-data read', async () => {
    for (const path of [
      '/api/v1/organizations',
      `${base}/capabilities`,
      `${base}/policy-profiles`,
      `${base}/policy-profiles/pp_standard`,
      `${base}/templates`,
      `${base}/templates/tpl_web`,
    ]) {
      const res = await h.request.get(path).set('Authorization', auth);
      expect(res.status, path).to.equal(200);
      expectConforms(res);
    }
  });

  it('walks a registration through create, list, read, edit, submit, withdraw and delete', async () => {
    const created = await h.request
      .post(`${base}/registrations`)
      .set('Authorization', auth)
      .send({ name: 'Conformance app', templateId: 'tpl_web', config: VALID_WEB_CONFIG });
    expect(created.status).to.equal(201);
    expectConforms(created);
    expect(created.headers.location).to.equal(`${h.deps.config.publicBaseUrl}${base}/registrations/${created.body.id}`);
    expect(created.headers.etag).to.equal('"1"');
    expect(created.body.actions).to.deep.equal(['edit', 'submit', 'delete']);
    const url = `${base}/registrations/${created.body.id}`;

    await h.request
      .post(`${base}/registrations`)
      .set('Authorization', auth)
      .send({ name: 'Second', templateId: 'tpl_spa' })
      .expect(201);
    const page = await h.request.get(`${base}/registrations?limit=1`).set('Authorization', auth);
    expect(page.status).to.equal(200);
    expectConforms(page);
    expect(page.body.nextCursor).to.be.a('string');
    const next = await h.request
      .get(`${base}/registrations?limit=1&cursor=${page.body.nextCursor}`)
      .set('Authorization', auth);
    expectConforms(next);
    expect(next.body.data[0].name).to.equal('Second');
    const filtered = await h.request.get(`${base}/registrations?status=draft`).set('Authorization', auth);
    expectConforms(filtered);

    const read = await h.request.get(url).set('Authorization', auth);
    expect(read.status).to.equal(200);
    expectConforms(read);
    expect(read.headers.etag).to.equal('"1"');

    const edited = await h.request
      .patch(url)
      .set('Authorization', auth)
      .set('If-Match', '"1"')
      .send({ description: 'Edited' });
    expect(edited.status).to.equal(200);
    expectConforms(edited);
    expect(edited.headers.etag).to.equal('"2"');

    const submitted = await h.request.post(`${url}/actions/submit`).set('Authorization', auth).set('If-Match', '"2"');
    expect(submitted.status).to.equal(200);
    expectConforms(submitted);
    expect(submitted.body.status).to.equal('pending_review');
    expect(submitted.body.actions).to.deep.equal(['withdraw']);

    const withdrawn = await h.request.post(`${url}/actions/withdraw`).set('Authorization', auth).send({});
    expect(withdrawn.status).to.equal(200);
    expectConforms(withdrawn);
    expect(withdrawn.body.status).to.equal('draft');

    const deleted = await h.request.delete(url).set('Authorization', auth).set('If-Match', withdrawn.headers.etag);
    expect(deleted.status).to.equal(204);
    expectConforms(deleted);
    const gone = await h.request.get(url).set('Authorization', auth);
    expect(gone.status).to.equal(404);
    expectConforms(gone);
  });

  it('dry-runs the submit-time policy on a create body and on a stored registration, storing nothing', async () => {
    const before = await h.deps.store.registrations.count(org.id);
    const bad = await h.request
      .post(`${base}/registrations/validation`)
      .set('Authorization', auth)
      .send({ name: 'Dry run', templateId: 'tpl_web', config: { redirectUris: ['http://app.example.com/cb'] } });
    expect(bad.status).to.equal(200);
    expectConforms(bad);
    expect(bad.body.valid).to.equal(false);
    expect(bad.body.violations.map((v: { path: string }) => v.path)).to.include('config.redirectUris[0]');
    const good = await h.request
      .post(`${base}/registrations/validation`)
      .set('Authorization', auth)
      .send({ name: 'Dry run', templateId: 'tpl_web', config: VALID_WEB_CONFIG });
    expectConforms(good);
    expect([good.body.valid, good.body.violations]).to.deep.equal([true, []]);
    expect(good.body.effectiveConfig.tokenEndpointAuthMethod).to.equal('client_secret_basic');
    const structural = await h.request
      .post(`${base}/registrations/validation`)
      .set('Authorization', auth)
      .send({ name: 'x', status: 'active' });
    expect([structural.status, structural.body.error.code]).to.deep.equal([422, 'validation_failed']);
    expectConforms(structural);
    expect(await h.deps.store.registrations.count(org.id)).to.equal(before);

    const draft = await h.request
      .post(`${base}/registrations`)
      .set('Authorization', auth)
      .send({ name: 'Stored', templateId: 'tpl_web' });
    const stored = await h.request.get(`${base}/registrations/${draft.body.id}/validation`).set('Authorization', auth);
    expect(stored.status).to.equal(200);
    expectConforms(stored);
    const submit = await h.request
      .post(`${base}/registrations/${draft.body.id}/actions/submit`)
      .set('Authorization', auth);
    expect(stored.body.valid).to.equal(false);
    expect(submit.body.error.fields).to.deep.equal(stored.body.violations);
  });

  it('proposes, lists, reads and withdraws a change set on an active registration', async () => {
    const created = await h.request
      .post(`${base}/registrations`)
      .set('Authorization', auth)
      .send({ name: 'Live app', templateId: 'tpl_web', config: VALID_WEB_CONFIG });
    const url = `${base}/registrations/${created.body.id}`;
    await h.request.post(`${url}/actions/submit`).set('Authorization', auth).expect(200);
    await decideRegistration(h.deps, 'approve', {
      organizationId: org.id,
      id: created.body.id,
      reviewer: 'reviewer-bob',
    });
    const active = await h.request.get(url).set('Authorization', auth);
    expectConforms(active);
    expect(active.body.status).to.equal('active');
    expect(active.body.clientId).to.be.a('string');
    // Approved without provisioning: no authorization server issued a secret, so there is none to reveal or rotate.
    expect(active.body.actions).to.deep.equal(['propose_change_set']);

    const proposed = await h.request
      .post(`${url}/change-sets`)
      .set('Authorization', auth)
      .send({ changes: { redirectUris: ['https://app.example.com/callback', 'https://app.example.com/callback2'] } });
    expect(proposed.status).to.equal(201);
    expectConforms(proposed);
    expect(proposed.headers.location).to.equal(`${h.deps.config.publicBaseUrl}${url}/change-sets/${proposed.body.id}`);
    expect(proposed.body.actions).to.deep.equal(['withdraw']);
    const csUrl = `${url}/change-sets/${proposed.body.id}`;

    const list = await h.request.get(`${url}/change-sets`).set('Authorization', auth);
    expect(list.status).to.equal(200);
    expectConforms(list);
    expect(list.body.data).to.have.length(1);
    const one = await h.request.get(csUrl).set('Authorization', auth);
    expectConforms(one);
    const locked = await h.request.get(url).set('Authorization', auth);
    expect(locked.body.pendingChangeSetId).to.equal(proposed.body.id);
    expect(locked.body.actions).to.deep.equal([]);

    const withdrawn = await h.request
      .post(`${csUrl}/actions/withdraw`)
      .set('Authorization', auth)
      .set('If-Match', '"1"');
    expect(withdrawn.status).to.equal(200);
    expectConforms(withdrawn);
    expect(withdrawn.body.status).to.equal('withdrawn');
    expect(withdrawn.body.actions).to.deep.equal([]);
    const released = await h.request.get(url).set('Authorization', auth);
    expect(released.body.actions).to.deep.equal(['propose_change_set']);
  });

  it('documents the error responses: 400, 403, 404, 405, 409, 412, 422', async () => {
    const created = await h.request
      .post(`${base}/registrations`)
      .set('Authorization', auth)
      .send({ name: 'Errors', templateId: 'tpl_web' });
    const url = `${base}/registrations/${created.body.id}`;
    const readOnly = `Bearer ${await h.token({ scope: 'registrations:read' })}`;
    const cases = [
      [await h.request.get(`${base}/registrations?limit=0`).set('Authorization', auth), 400, 'invalid_request'],
      [await h.request.get(`${base}/registrations?cursor=nonsense`).set('Authorization', auth), 400, 'invalid_cursor'],
      [await h.request.patch(url).set('Authorization', readOnly).send({ name: 'x' }), 403, 'insufficient_scope'],
      [
        await h.request.get(`${base}/registrations/reg_doesnotexist000000`).set('Authorization', auth),
        404,
        'not_found',
      ],
      [await h.request.put(url).set('Authorization', auth).send({}), 405, 'method_not_allowed'],
      [await h.request.post(`${url}/actions/withdraw`).set('Authorization', auth), 409, 'invalid_transition'],
      [
        await h.request.patch(url).set('Authorization', auth).set('If-Match', '"7"').send({ name: 'x' }),
        412,
        'precondition_failed',
      ],
      [await h.request.patch(url).set('Authorization', auth).send({ status: 'active' }), 422, 'validation_failed'],
      [await h.request.post(`${url}/actions/submit`).set('Authorization', auth), 422, 'validation_failed'],
    ] as const;
    for (const [res, status, code] of cases) {
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error.code).to.equal(code);
      expectConforms(res);
    }
  });
});
