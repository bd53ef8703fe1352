import { expect } from 'chai';
import { framing } from '../../../checks/support/csp-framing.js';
import { parsePolicies, sourceExpression } from '../../../checks/support/csp-policy.js';

describe('checks/support/csp-policy and csp-framing (CSP3 grammar)', () => {
  it('classifies source expressions by the CSP3 grammar, a quoted URL being invalid', () => {
    expect(sourceExpression("'self'")).to.deep.equal({ kind: 'keyword', keyword: "'self'" });
    expect(sourceExpression("'NONE'")).to.deep.equal({ kind: 'none' });
    expect(sourceExpression('https:')).to.deep.equal({ kind: 'scheme', scheme: 'https' });
    expect(sourceExpression('https://*.example.com:443/app/')).to.deep.equal({
      kind: 'host',
      scheme: 'https',
      host: '*.example.com',
      port: '443',
      path: '/app/',
    });
    expect(sourceExpression("'nonce-abc123=='")).to.deep.equal({ kind: 'nonce' });
    expect(sourceExpression("'sha256-abc+/='")).to.deep.equal({ kind: 'hash' });
    expect(sourceExpression("'http://example.com'")).to.deep.equal({ kind: 'invalid', text: "'http://example.com'" });
    expect(sourceExpression('https://exa mple')).to.have.property('kind', 'invalid');
  });

  it('splits policies on commas and directives on semicolons, lower-cases names and ignores a repeated directive', () => {
    const [first, second] = parsePolicies("Frame-Ancestors 'none'; frame-ancestors *, default-src 'self'");
    expect(first.get('frame-ancestors')).to.deep.equal(["'none'"]);
    expect(second.get('default-src')).to.deep.equal(["'self'"]);
  });

  it('judges frame-ancestors: none, self and named hosts restrict; *, a web scheme and a wildcard host do not', () => {
    for (const csp of [
      "frame-ancestors 'none'",
      "frame-ancestors 'self'",
      'frame-ancestors https://partner.example',
      'frame-ancestors *.example.com',
      'frame-ancestors',
    ]) {
      expect(framing(csp).verdict, csp).to.equal('restricted');
    }
    for (const csp of [
      'frame-ancestors *',
      'frame-ancestors https:',
      'frame-ancestors https://*',
      "frame-ancestors 'self' *:*",
      "frame-ancestors 'none' https:",
    ]) {
      expect(framing(csp).verdict, csp).to.equal('unrestricted');
    }
    expect(framing("default-src 'self'").verdict).to.equal('absent');
    expect(framing(undefined).verdict).to.equal('absent');
  });

  it('ignores invalid sources: alone they set no policy, beside a valid one they are dropped', () => {
    expect(framing("frame-ancestors 'http://example.com'").verdict).to.equal('invalid');
    expect(framing("frame-ancestors 'http://example.com' 'unsafe-inline'").verdict).to.equal('invalid');
    expect(framing("frame-ancestors 'http://example.com' https://example.com").verdict).to.equal('restricted');
  });

  it('counts a restrictive policy among several enforced ones (two headers joined with a comma)', () => {
    expect(framing("frame-ancestors *, frame-ancestors 'none'").verdict).to.equal('restricted');
    expect(framing("default-src 'self', frame-ancestors 'http://example.com'").verdict).to.equal('invalid');
  });
});
