import { expect } from 'chai';
import { encodeSegment, isJwt, parseUnverified } from '../../scanner/compact-jwt.js';

const token = (header: unknown, payload: unknown, signature = 'c2ln'): string =>
  `${encodeSegment(header)}.${encodeSegment(payload)}.${signature}`;

describe('scanner/compact-jwt: the one JWT-shape detector', () => {
  it('calls a compact JWS with an alg header and a JSON-object payload a JWT, signed or not', () => {
    expect(isJwt(token({ alg: 'HS256', typ: 'JWT' }, { sub: 'alice' }))).to.equal(true);
    expect(isJwt(token({ alg: 'none' }, { sub: 'alice' }, ''))).to.equal(true);
  });

  it('calls opaque tokens, JWEs, a header without alg, a non-object payload and whitespace not a JWT', () => {
    expect(isJwt('2YotnFZFEjr1zCsicMWpAA')).to.equal(false);
    expect(isJwt('a.b.c.d.e')).to.equal(false);
    expect(isJwt(token({ typ: 'JWT' }, { sub: 'alice' }))).to.equal(false);
    expect(isJwt(token({ alg: 'HS256' }, 'alice'))).to.equal(false);
    expect(isJwt(` ${token({ alg: 'HS256' }, { sub: 'alice' })}`)).to.equal(false);
  });

  it('agrees with parseUnverified, which keeps the raw segments for attacks', () => {
    const raw = token({ alg: 'HS256' }, { sub: 'alice' });
    const parsed = parseUnverified(raw);
    expect(parsed.ok && parsed.jwt.signingInput).to.equal(raw.split('.').slice(0, 2).join('.'));
  });
});
