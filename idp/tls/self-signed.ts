/**
 * `--https`: a certificate authority made at start and a server certificate it signs for the listener's names, as
 * mkcert does for development — a CA a client can trust (`--tls-ca-out`), and a leaf a browser accepts (CA:FALSE,
 * serverAuth, the names in subjectAltName). RSA 2048 keys from node:crypto; the certificates are built and signed
 * with node-forge (node:crypto makes keys but not certificates).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

export interface GeneratedCertificate {
  /** The CA certificate (PEM): what a client trusts. */
  ca: string;
  /** The server certificate (PEM), then the CA's: the chain the listener presents. */
  cert: string;
  /** The server certificate's private key (PEM). */
  key: string;
}

const DAY_MS = 24 * 3600 * 1000;
const LIFETIME_DAYS = 30;

function keyPair(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

/**
 * A positive serial number in minimal DER (RFC 5280 §4.1.2.2): 16 random bytes whose first is 0x40–0x7f — below 0x80
 * so it is not negative, and not 0x00, which OpenSSL refuses as padding ("illegal padding"; the former `0` + 15 random
 * bytes did so whenever the first random byte was 0x00, one certificate in 256).
 */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = 0x40 | (bytes[0] & 0x3f);
  return bytes.toString('hex');
}

function certificate(
  subject: string,
  publicKey: forge.pki.rsa.PublicKey,
  extensions: object[],
  issuer?: forge.pki.Certificate,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(Date.now() - DAY_MS);
  cert.validity.notAfter = new Date(Date.now() + LIFETIME_DAYS * DAY_MS);
  cert.publicKey = publicKey;
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setIssuer(issuer ? issuer.subject.attributes : [{ name: 'commonName', value: subject }]);
  cert.setExtensions([...extensions, { name: 'subjectKeyIdentifier' }]);
  return cert;
}

/** A CA and a server certificate for these host names and IP addresses (localhost and loopback always included). */
export function generateCertificate(names: readonly string[] = []): GeneratedCertificate {
  const all = [...new Set(['localhost', '127.0.0.1', '::1', ...names.map((n) => n.replace(/^\[|\]$/g, ''))])];

  const caKeys = keyPair();
  const ca = certificate('Gatehouse stub IdP development CA', caKeys.publicKey, [
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const serverKeys = keyPair();
  const server = certificate(
    all.find((n) => !isIP(n)) ?? 'localhost',
    serverKeys.publicKey,
    [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: all.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
      { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
    ],
    ca,
  );
  server.sign(caKeys.privateKey, forge.md.sha256.create());

  const caPem = forge.pki.certificateToPem(ca);
  return {
    ca: caPem,
    cert: `${forge.pki.certificateToPem(server)}${caPem}`,
    key: forge.pki.privateKeyToPem(serverKeys.privateKey),
  };
}
