/**
 * The listener's TLS (`--tls-cert`/`--tls-key`, or `--https`): the certificate and key read from their files, or a
 * development CA and server certificate made at start for the listener's names, the CA written where clients can
 * trust it (`--tls-ca-out`, else a new temporary file).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { idpError } from '../errors.js';
import type { IdpConfig } from '../settings.js';
import { generateCertificate } from './self-signed.js';

export interface ListenerTls {
  cert: string;
  key: string;
  /** With --https: the generated CA (PEM) and the file it was written to. */
  ca?: string;
  caFile?: string;
}

async function read(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw idpError('invalid_tls', `cannot read the TLS ${what} ${path} (${reason})`, { cause: error });
  }
}

/** The names the generated certificate is for: the listener's host and the issuer's (loopback names are added). */
function certificateNames(config: Pick<IdpConfig, 'host' | 'issuer'>): string[] {
  const names = config.host === '0.0.0.0' || config.host === '::' ? [] : [config.host];
  if (config.issuer) names.push(new URL(config.issuer).hostname);
  return names;
}

export async function listenerTls(
  config: Pick<IdpConfig, 'https' | 'tlsCert' | 'tlsKey' | 'tlsCaOut' | 'host' | 'issuer'>,
): Promise<ListenerTls | undefined> {
  if (config.tlsCert && config.tlsKey) {
    const tls = { cert: await read(config.tlsCert, 'certificate'), key: await read(config.tlsKey, 'key') };
    try {
      createSecureContext(tls);
    } catch (error) {
      throw idpError('invalid_tls', `cannot use ${config.tlsCert} with ${config.tlsKey}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return tls;
  }
  if (!config.https) return undefined;
  const generated = generateCertificate(certificateNames(config));
  const caFile = config.tlsCaOut ?? join(await mkdtemp(join(tmpdir(), 'idp-tls-')), 'ca.pem');
  try {
    await writeFile(caFile, generated.ca);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw idpError('invalid_tls', `cannot write the CA certificate to ${caFile} (${reason})`, { cause: error });
  }
  return { cert: generated.cert, key: generated.key, ca: generated.ca, caFile };
}
