import { expect } from 'chai';
import { validatorFor } from '../../../../lib/json-schema.js';
import { validateRegistration } from '../../../../server/components/policy/validate-registration.js';
import { TEMPLATES } from '../../../../server/components/templates/templates.data.js';

const schema = validatorFor('https://gatehouse.dev/schemas/api/template.schema.json');

const sampleRedirects: Record<string, string[]> = {
  spa: ['https://app.example.com/cb'],
  web: ['https://app.example.com/cb'],
  native: ['http://127.0.0.1/cb', 'com.example.app:/cb'],
  service: [],
};

describe('template data', () => {
  it('holds exactly tpl_spa, tpl_web, tpl_native and tpl_m2m', () => {
    expect(TEMPLATES.map((t) => t.id)).to.have.members(['tpl_spa', 'tpl_web', 'tpl_native', 'tpl_m2m']);
  });

  for (const template of TEMPLATES) {
    it(`${template.id} is valid against template.schema.json`, () => {
      expect(schema(template), JSON.stringify(schema.errors)).to.equal(true);
    });

    it(`${template.id} passes the policy on enterprise once its redirect URIs are filled in`, () => {
      const problems = validateRegistration({
        config: { ...template.defaults, redirectUris: sampleRedirects[template.applicationType] },
        clientType: template.clientType,
        applicationType: template.applicationType,
        policyProfileId: template.policyProfileId,
        plan: 'enterprise',
      });
      expect(problems).to.deep.equal([]);
    });
  }
});
