/**
 * Every OWASP category a check names is one of the OWASP API Security Top 10 2023 (test/checks/support/owasp.ts) or a
 * documented extra, and discovery findings sit where OWASP puts exposed inventory, not under request forgery.
 */
import { expect } from 'chai';
import { loadChecks } from '../../scanner/loader.js';
import { DOCUMENTED_OWASP_EXTRAS, isKnownOwaspCategory, OWASP_API_TOP_10_2023 } from './support/owasp.js';

const checks = (await loadChecks({ includeBuiltIn: true })).map((c) => c.definition);

describe('OWASP categories of the checks', () => {
  it('lists the ten categories of the 2023 edition, numbered 1 to 10', () => {
    expect(OWASP_API_TOP_10_2023.map((c) => c.split(':')[0])).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => `API${i + 1}`),
    );
  });

  it('gives every documented extra a reason', () => {
    for (const [category, reason] of Object.entries(DOCUMENTED_OWASP_EXTRAS))
      expect(reason, category).to.match(/\w{3,}/);
  });

  it('uses only the ten or a documented extra in every issue of every check', () => {
    const unknown = checks.flatMap((d) =>
      d.issues
        .map((i) => i.classifications?.owasp)
        .filter((c): c is string => c !== undefined && !isKnownOwaspCategory(c)),
    );
    expect(unknown).to.deep.equal([]);
  });

  it('files discovery findings under inventory or misconfiguration, never server side request forgery', () => {
    const discovery = checks
      .filter((d) => d.id.startsWith('discover.'))
      .flatMap((d) => d.issues.map((i) => `${d.id} ${i.classifications?.owasp ?? ''}`));
    expect(discovery.filter((line) => line.includes('Server Side Request Forgery'))).to.deep.equal([]);
  });

  it('names issues in plain grammar ("May Accept", not "May Accepts")', () => {
    const names = checks.flatMap((d) => d.issues.map((i) => i.name));
    expect(names).to.include('Operation May Accept Unauthenticated Requests');
    expect(names.filter((n) => /\b(May|Can|Must|Will) \w+s\b/.test(n))).to.deep.equal([]);
  });
});
