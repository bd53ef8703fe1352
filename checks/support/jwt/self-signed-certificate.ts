/**
 * A minimal self-signed X.509 v3 certificate (RFC 5280 §4.1) for an RSA key, DER-encoded by hand: node:crypto reads
 * certificates but cannot make them. Used by the x5c/x5u injection checks to present the scanner's own key.
 */
import { randomBytes, sign, type KeyObject } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const utcTime = (date: Date): Buffer =>
  tlv(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`));
const name = (commonName: string): Buffer =>
  sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))));
/** sha256WithRSAEncryption (RFC 4055 §5) with its NULL parameters. */
const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

/** DER of a certificate for `publicKey`, issued by and to `commonName`, signed by `privateKey`, valid for a day. */
export function selfSignedCertificate(privateKey: KeyObject, publicKey: KeyObject, commonName: string): Buffer {
  const serial = randomBytes(16);
  serial[0] = serial[0] & 0x7f; // a positive INTEGER
  const now = Date.now();
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([0x02]))), // [0] version v3
    tlv(0x02, serial),
    SHA256_WITH_RSA,
    name(commonName),
    sequence(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 86_400_000))),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  return sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0x00]), signature));
}

/** PEM armour of a DER certificate (RFC 7468 §5). */
export function certificatePem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
