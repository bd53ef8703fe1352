import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parseSeed, readSeedFile, SeedFileError } from '../../../server/seed/read-seed-file.js';

const ORG = 'org_demo1234567890abcd';

const DESIGN_EXAMPLE = `
organizations: [{ id: ${ORG}, name: Demo, plan: pro }]
grants:        [{ organizationId: ${ORG}, subject: alice, default: true }]
registrations: [{ organizationId: ${ORG}, name: Existing app, clientType: confidential,
                  applicationType: web, policyProfileId: pp_standard, status: active, clientId: existing-1,
                  config: { redirectUris: [https://app.example.com/cb], grantTypes: [authorization_code] } }]
`;

function problemsOf(text: string, file = 'seed.yaml'): string[] {
  try {
    parseSeed(text, file);
  } catch (err) {
    if (err instanceof SeedFileError) return err.problems;
    throw err;
  }
  return [];
}

describe('readSeedFile', () => {
  it('reads the YAML example of docs/architecture.md §1.1b', () => {
    const data = parseSeed(DESIGN_EXAMPLE, 'seed.yaml');
    expect(data.organizations).to.deep.equal([{ id: ORG, name: 'Demo', plan: 'pro' }]);
    expect(data.registrations?.[0].config.redirectUris).to.deep.equal(['https://app.example.com/cb']);
  });

  it('reads JSON files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seed-'));
    try {
      const file = join(dir, 'seed.json');
      await writeFile(file, JSON.stringify({ organizations: [{ name: 'Solo', plan: 'free' }] }));
      expect((await readSeedFile(file)).organizations).to.deep.equal([{ name: 'Solo', plan: 'free' }]);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('lists every schema problem at once, with paths', () => {
    const problems = problemsOf(`
organizations: [{ id: bad, name: '', plan: gold }]
grants: [{ organizationId: ${ORG} }]
extra: true
`);
    expect(problems.join('\n')).to.contain('organizations[0].id');
    expect(problems.join('\n')).to.contain('organizations[0].plan');
    expect(problems.join('\n')).to.contain('grants[0].subject');
    expect(problems.join('\n')).to.contain('extra');
    expect(problems.length).to.be.at.least(4);
  });

  it('lists every reference problem at once', () => {
    const problems = problemsOf(`
organizations: [{ id: ${ORG}, name: Demo, plan: pro }, { id: ${ORG}, name: Again, plan: free }]
grants:
  - { organizationId: org_unknown1234567890ab, subject: alice }
  - { organizationId: ${ORG}, subject: bob, default: true }
  - { organizationId: ${ORG}, subject: bob, default: true }
registrations:
  - { organizationId: ${ORG}, name: A, clientType: public, applicationType: spa, policyProfileId: pp_nope, status: active, config: {} }
  - { organizationId: ${ORG}, name: B, clientType: public, applicationType: spa, policyProfileId: pp_standard, status: draft, clientId: x, config: {} }
`);
    expect(problems).to.have.length(6);
    expect(problems.join('\n')).to.match(/appears twice/);
    expect(problems.join('\n')).to.contain('grants[0].organizationId');
    expect(problems.join('\n')).to.contain('bob has 2 default organizations');
    expect(problems.join('\n')).to.contain('registrations[0].policyProfileId');
    expect(problems.join('\n')).to.contain('registrations[0].clientId is required for status active');
    expect(problems.join('\n')).to.contain('registrations[1].clientId is only allowed');
  });

  it('reads policy profiles declared beside the built-in ones, which its registrations may name', () => {
    const data = parseSeed(
      `
policyProfiles:
  - { id: pp_short_secrets, name: Short-lived secrets, basedOn: pp_service, constraints: { maxSecretLifetimeDays: 30 } }
organizations: [{ id: ${ORG}, name: Demo, plan: pro }]
registrations: [{ organizationId: ${ORG}, name: Batch job, clientType: confidential, applicationType: service,
                  policyProfileId: pp_short_secrets, config: { grantTypes: [client_credentials] } }]
`,
      'seed.yaml',
    );
    expect(data.policyProfiles?.[0]).to.include({ id: 'pp_short_secrets', basedOn: 'pp_service' });
  });

  it('lists every problem of declared policy profiles, naming what to fix', () => {
    const problems = problemsOf(`
policyProfiles:
  - { id: pp_standard, name: Clash }
  - { id: pp_orphan, name: Orphan, basedOn: pp_nothing }
  - { id: pp_bare, name: Bare, appliesTo: [confidential] }
  - { id: pp_bad, name: Bad, basedOn: pp_standard, constraints: { maxSecretLifetimeDays: 0 } }
  - { id: pp_twice, name: Twice, basedOn: pp_standard }
  - { id: pp_twice, name: Twice again, basedOn: pp_standard }
organizations: [{ id: ${ORG}, name: Demo, plan: pro }]
registrations: [{ organizationId: ${ORG}, name: X, clientType: public, applicationType: spa, policyProfileId: pp_unknown, config: {} }]
`);
    expect(problems.join('\n'))
      .to.contain('policyProfiles[0] id pp_standard is a built-in policy profile')
      .and.contain('policyProfiles[1] basedOn pp_nothing is not a built-in policy profile')
      .and.contain('policyProfiles[2] constraints')
      .and.contain('(or start from a built-in profile with basedOn)')
      .and.contain('policyProfiles[3] constraints.maxSecretLifetimeDays')
      .and.contain('policyProfiles[5].id pp_twice appears twice')
      .and.contain('registrations[0].policyProfileId pp_unknown is neither a built-in policy profile');
  });

  it('validates registration configs with the structural config schema', () => {
    const problems = problemsOf(`
organizations: [{ id: ${ORG}, name: Demo, plan: pro }]
registrations: [{ organizationId: ${ORG}, name: A, clientType: public, applicationType: spa, policyProfileId: pp_standard, config: { redirectUris: 'not-a-list' } }]
`);
    expect(problems.join('\n')).to.contain('registrations[0].config.redirectUris');
  });

  it('names an unreadable or unparsable file', async () => {
    expect(problemsOf('organizations: [', 'broken.yaml')[0]).to.match(/^cannot parse/);
    try {
      await readSeedFile('/nonexistent/seed.yaml');
      expect.fail('should have thrown');
    } catch (err) {
      expect((err as SeedFileError).problems).to.deep.equal(['cannot read: ENOENT']);
    }
  });
});
