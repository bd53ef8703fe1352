import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { expect } from 'chai';
import { generateCertificate } from '../../../idp/tls/self-signed.js';

describe('the development certificates of --https', () => {
  it('carry positive 16-byte serial numbers in minimal DER, which OpenSSL loads every time', () => {
    for (let i = 0; i < 3; i++) {
      const { ca, cert, key } = generateCertificate(['127.0.0.1']);
      for (const pem of [ca, cert]) {
        const serial = new X509Certificate(pem).serialNumber;
        // 32 hex digits whose first byte is 0x40–0x7f: never negative, never a leading 0x00 OpenSSL calls padding.
        expect(serial).to.match(/^[4-7][0-9A-F]{31}$/);
      }
      expect(() => createSecureContext({ cert, key, ca })).not.to.throw();
    }
  });
});
