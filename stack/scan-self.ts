/**
 * `npm run scan:self`: scans every operation of the running service's OpenAPI document (from `npm start`) with
 * IdP-issued tokens — sam's as the scanning identity, in an organization of its own on the enterprise plan (its rate
 * limit does not throttle a scan, so runs in a row keep full coverage), bob's (another organization) for the
 * object-level authorization checks — and prints the scanner's table. Extra arguments go to the scanner
 * (`-- --report-format json`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as scanner } from '../scanner/cli.js';
import { DEMO } from './demo.js';
import { withRealPathValues } from './self-scan-document.js';
import { userToken } from './tokens.js';

export interface SelfScanOptions {
  idp: string;
  service: string;
  audience: string;
  scannerArgs?: string[];
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export async function scanSelf(options: SelfScanOptions): Promise<number> {
  const request = {
    issuer: options.idp,
    clientId: DEMO.clientId,
    clientSecret: DEMO.clientSecret,
    scope: DEMO.scopes.join(' '),
    resource: options.audience,
  };
  const [token, otherToken] = await Promise.all([
    userToken({ ...request, redirectUri: DEMO.redirectUri, loginHint: DEMO.selfScanUser }),
    userToken({ ...request, redirectUri: DEMO.redirectUri, loginHint: DEMO.otherUser }),
  ]);
  const api = `${options.service}/api/v1`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const documentResponse = await fetch(`${api}/openapi.json`);
  if (!documentResponse.ok) throw new Error(`GET ${api}/openapi.json answered ${documentResponse.status}`);
  // A registration of its own for the scan to read, edit and delete.
  options.stderr.write(
    `scan:self: scanning ${api} as ${DEMO.selfScanUser} in ${DEMO.selfScanOrganizationId} (enterprise plan: its rate limit does not throttle a scan), ${DEMO.otherUser} as the other identity\n`,
  );
  const created = await fetch(`${api}/organizations/${DEMO.selfScanOrganizationId}/registrations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Self-scan target',
      templateId: 'tpl_web',
      config: { redirectUris: ['https://self-scan.example.com/cb'] },
    }),
  });
  if (created.status !== 201)
    throw new Error(`creating the self-scan registration answered ${created.status}: ${await created.text()}`);
  const { id: registrationId } = (await created.json()) as { id: string };

  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-scan-'));
  try {
    const file = join(dir, 'openapi.json');
    const document = withRealPathValues(
      (await documentResponse.json()) as { paths?: Record<string, Record<string, unknown>> },
      {
        organizationId: DEMO.selfScanOrganizationId,
        registrationId,
      },
    );
    await writeFile(file, JSON.stringify(document));
    return await scanner(
      [
        'scan',
        'openapi',
        file,
        '--base-url',
        api,
        '--security-schemes',
        `bearerAuth=${token}`,
        '--as-other',
        `Authorization: Bearer ${otherToken}`,
        ...(options.scannerArgs ?? []),
      ],
      { stdout: options.stdout, stderr: options.stderr },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
