import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createTokenCipher } from '../../../../server/components/provisioning/token-cipher.js';

describe('registration access tokens at rest (AES-256-GCM)', () => {
  const cipher = createTokenCipher(randomBytes(32).toString('base64'));

  it('round-trips, never contains the token, and differs on every encryption', () => {
    const sealed = cipher.encrypt('rat-secret-value', 'reg_A');
    expect(sealed).to.match(/^v1\./).and.not.include('rat-secret-value');
    expect(cipher.encrypt('rat-secret-value', 'reg_A')).not.to.equal(sealed);
    expect(cipher.decrypt(sealed, 'reg_A')).to.equal('rat-secret-value');
  });

  it('refuses a ciphertext moved to another registration, a tampered one, and another key', () => {
    const sealed = cipher.encrypt('rat-secret-value', 'reg_A');
    expect(() => cipher.decrypt(sealed, 'reg_B')).to.throw();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] = flipped[0] ^ 1;
    expect(() =>
      cipher.decrypt([parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.'), 'reg_A'),
    ).to.throw();
    expect(() => createTokenCipher(randomBytes(32).toString('base64')).decrypt(sealed, 'reg_A')).to.throw();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createTokenCipher(randomBytes(16).toString('base64'))).to.throw(/32 bytes/);
  });
});
