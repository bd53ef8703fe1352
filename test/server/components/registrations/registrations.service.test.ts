/**
 * Bad input at the domain level: the service functions themselves refuse it with the right error and every
 * field named, and the stored record stays exactly as it was (no mass assignment, no operator injection).
 */
import { expect } from 'chai';
import {
  createRegistration,
  deleteRegistration,
  submitRegistration,
  updateRegistration,
  withdrawRegistration,
} from '../../../../server/components/registrations/registrations.service.js';
import { domain, rejection } from './domain-fixtures.js';

const VALID = { name: 'Domain app', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } };

describe('registrations service', () => {
  describe('createRegistration', () => {
    it('creates a draft owned by the caller with the template defaults under the given config', async () => {
      const { deps, context } = await domain();
      const record = await createRegistration(deps, context, VALID);
      expect(record).to.include({
        status: 'draft',
        revision: 1,
        createdBy: 'alice',
        clientType: 'confidential',
        applicationType: 'web',
      });
      expect(record.organizationId).to.equal(context.organization.id);
      expect(record.config.redirectUris).to.deep.equal(['https://app.example.com/cb']);
      expect(record.config.grantTypes).to.deep.equal(['authorization_code', 'refresh_token']);
    });

    it('refuses fields a caller may never write, naming each', async () => {
      const { deps, context } = await domain();
      const error = await rejection(
        createRegistration(deps, context, {
          ...VALID,
          status: 'active',
          organizationId: 'org_x',
          clientId: 'mine',
          revision: 9,
          createdBy: 'root',
        }),
      );
      expect(error.status).to.equal(422);
      expect(error.code).to.equal('validation_failed');
      expect(error.fields?.map((f) => f.path).sort()).to.deep.equal([
        'clientId',
        'createdBy',
        'organizationId',
        'revision',
        'status',
      ]);
      expect(await deps.store.registrations.count(context.organization.id)).to.equal(0);
    });

    it('refuses $-operator objects and __proto__ keys instead of storing them', async () => {
      const { deps, context } = await domain();
      const attacks = [
        { ...VALID, name: { $gt: '' } },
        { ...VALID, config: { redirectUris: { $ne: null } } },
        { ...VALID, config: { $where: 'sleep(1000)' } },
        JSON.parse('{"name":"x","templateId":"tpl_web","__proto__":{"status":"active"}}'),
        JSON.parse('{"name":"x","templateId":"tpl_web","config":{"__proto__":{"isAdmin":true}}}'),
      ];
      for (const body of attacks) {
        const error = await rejection(createRegistration(deps, context, body));
        expect(error.code, JSON.stringify(body)).to.equal('validation_failed');
        expect(error.fields).to.have.length.greaterThan(0);
      }
      expect(await deps.store.registrations.count(context.organization.id)).to.equal(0);
      expect(({} as Record<string, unknown>).status).to.equal(undefined);
    });

    it('refuses 10 000 redirect URIs and overlong strings with a field error', async () => {
      const { deps, context } = await domain();
      const many = Array.from({ length: 10_000 }, (_, i) => `https://app.example.com/cb/${i}`);
      const error = await rejection(createRegistration(deps, context, { ...VALID, config: { redirectUris: many } }));
      expect(error.fields?.map((f) => f.path)).to.include('config.redirectUris');
      const long = await rejection(createRegistration(deps, context, { ...VALID, name: 'x'.repeat(10_000) }));
      expect(long.fields?.map((f) => f.path)).to.deep.equal(['name']);
    });

    it('asks for client type, application type and profile when no template is named', async () => {
      const { deps, context } = await domain();
      const error = await rejection(createRegistration(deps, context, { name: 'Bare' }));
      expect(error.fields?.map((f) => f.path).sort()).to.deep.equal([
        'applicationType',
        'clientType',
        'policyProfileId',
      ]);
      const unknown = await rejection(createRegistration(deps, context, { name: 'T', templateId: 'tpl_nope' }));
      expect(unknown.fields).to.deep.equal([{ path: 'templateId', message: 'is not a known template' }]);
    });

    it('refuses a body that is not an object, and names required fields of an empty one', async () => {
      const { deps, context } = await domain();
      for (const body of [[], 'text', 42, null])
        expect((await rejection(createRegistration(deps, context, body))).code).to.equal('validation_failed');
      expect((await rejection(createRegistration(deps, context, undefined))).fields?.map((f) => f.path)).to.include(
        'name',
      );
    });

    it('refuses with 403 plan_restricted once the plan quota is used up', async () => {
      const { deps, context } = await domain('free');
      for (let i = 0; i < 5; i += 1) await createRegistration(deps, context, VALID);
      const error = await rejection(createRegistration(deps, context, VALID));
      expect([error.status, error.code]).to.deep.equal([403, 'plan_restricted']);
      expect(await deps.store.registrations.count(context.organization.id)).to.equal(5);
    });
  });

  describe('updateRegistration', () => {
    it('refuses unknown and never-writable fields and leaves the stored record unchanged', async () => {
      const { deps, context } = await domain();
      const record = await createRegistration(deps, context, VALID);
      for (const body of [
        { status: 'active' },
        { organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA' },
        { clientId: 'x' },
        { revision: 7 },
        { templateId: 'tpl_spa' },
        { name: 'ok', config: { redirectUris: 'https://not-an-array' } },
        { config: { redirectUris: Array.from({ length: 10_000 }, () => 'https://a.example.com') } },
        {},
        JSON.parse('{"__proto__":{"status":"active"}}'),
      ]) {
        const error = await rejection(updateRegistration(deps, context, record.id, body));
        expect([error.status, error.code], JSON.stringify(body).slice(0, 80)).to.deep.equal([422, 'validation_failed']);
      }
      expect(await deps.store.registrations.get(context.organization.id, record.id)).to.deep.equal(record);
    });

    it('answers 409 invalid_transition once the registration is no longer editable, changing nothing', async () => {
      const { deps, context } = await domain();
      const record = await createRegistration(deps, context, VALID);
      const submitted = await submitRegistration(deps, context, record.id, {});
      const error = await rejection(updateRegistration(deps, context, record.id, { name: 'late' }));
      expect([error.status, error.code]).to.deep.equal([409, 'invalid_transition']);
      expect(await deps.store.registrations.get(context.organization.id, record.id)).to.deep.equal(submitted);
    });

    it('answers 403 insufficient_scope without the write scope', async () => {
      const { deps, context } = await domain();
      const record = await createRegistration(deps, context, VALID);
      const reader = { ...context, principal: { sub: 'alice', scopes: new Set(['registrations:read']) } };
      const error = await rejection(updateRegistration(deps, reader, record.id, { name: 'x' }));
      expect([error.status, error.code]).to.deep.equal([403, 'insufficient_scope']);
      expect(error.headers['WWW-Authenticate']).to.contain('scope="registrations:write"');
    });
  });

  describe('submitRegistration', () => {
    it('returns every policy violation at once and leaves the draft unchanged', async () => {
      const { deps, context } = await domain();
      const record = await createRegistration(deps, context, {
        name: 'Sloppy',
        templateId: 'tpl_web',
        config: {
          redirectUris: ['http://app.example.com/cb', 'https://*.example.com/cb', 'https://app.example.com/cb#frag'],
          grantTypes: ['implicit', 'password'],
        },
      });
      const error = await rejection(submitRegistration(deps, context, record.id, {}));
      expect(error.code).to.equal('validation_failed');
      const paths = error.fields?.map((f) => f.path) ?? [];
      for (const path of ['config.redirectUris[0]', 'config.redirectUris[1]', 'config.redirectUris[2]'])
        expect(paths).to.include(path);
      expect(paths.some((p) => p.startsWith('config.grantTypes'))).to.equal(true);
      expect(await deps.store.registrations.get(context.organization.id, record.id)).to.deep.equal(record);
    });

    it('refuses a body with fields and an unknown id', async () => {
      const { deps, context } = await domain();
      const record = await createRegistration(deps, context, VALID);
      expect((await rejection(submitRegistration(deps, context, record.id, { status: 'active' }))).code).to.equal(
        'validation_failed',
      );
      expect((await rejection(submitRegistration(deps, context, 'reg_0000000000000000nope', {}))).code).to.equal(
        'not_found',
      );
      expect((await rejection(submitRegistration(deps, context, '{"$gt":""}', {}))).code).to.equal('not_found');
      expect(await deps.store.registrations.get(context.organization.id, record.id)).to.deep.equal(record);
    });

    it('moves a valid draft to pending_review, recording who submitted, and withdraw brings it back', async () => {
      const { deps, context } = await domain();
      const record = await createRegistration(deps, context, VALID);
      const submitted = await submitRegistration(deps, context, record.id, undefined);
      expect(submitted).to.include({ status: 'pending_review', revision: 2, submittedBy: 'alice' });
      const withdrawn = await withdrawRegistration(deps, context, record.id, {});
      expect(withdrawn).to.include({ status: 'draft', revision: 3 });
      expect(withdrawn).to.not.have.property('submittedBy');
    });
  });

  describe('deleteRegistration', () => {
    it('deletes a draft and refuses an active registration with 409', async () => {
      const { deps, context } = await domain();
      const draft = await createRegistration(deps, context, VALID);
      await deleteRegistration(deps, context, draft.id);
      expect(await deps.store.registrations.get(context.organization.id, draft.id)).to.equal(null);
      const now = new Date();
      const active = await deps.store.registrations.upsert({
        ...draft,
        id: 'reg_0000000000000000Live',
        status: 'active',
        createdAt: now,
      });
      const error = await rejection(deleteRegistration(deps, context, active.id));
      expect([error.status, error.code]).to.deep.equal([409, 'invalid_transition']);
      expect(await deps.store.registrations.get(context.organization.id, active.id)).to.deep.equal(active);
    });
  });
});
