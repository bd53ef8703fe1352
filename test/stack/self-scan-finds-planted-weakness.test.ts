/**
 * The self-scan is not vacuous: the same scanner run that finds nothing on the service finds the planted
 * weakness when the service sits behind a verifier that ignores signatures (test fixture only).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { startService, type ServiceHarness } from '../support/service-harness.js';
import { startWeakVerifierProxy, type WeakVerifierProxy } from '../fixtures/weak-verifier/weak-verifier-proxy.js';

const run = promisify(execFile);

interface Report {
  reports: { id: string; issues: { id: string; status: string; cvss: { score: number } }[] }[];
}

async function scan(url: string, token: string): Promise<{ findings: string[]; code: number }> {
  const args = [
    '--import',
    'tsx',
    fromRoot('scanner', 'bin.ts'),
    'scan',
    'curl',
    url,
    '-H',
    `Authorization: Bearer ${token}`,
    '--scans',
    'jwt.*',
    '--scans',
    'auth.baseline',
    '--report-format',
    'json',
    '--no-progress',
  ];
  try {
    const { stdout } = await run(process.execPath, args, { cwd: fromRoot(), maxBuffer: 64 * 1024 * 1024 });
    return { findings: findingsOf(JSON.parse(stdout) as Report), code: 0 };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    if (!failed.stdout) throw new Error(`scanner failed: ${failed.stderr}`);
    return { findings: findingsOf(JSON.parse(failed.stdout) as Report), code: failed.code };
  }
}

function findingsOf(report: Report): string[] {
  return report.reports.flatMap((r) =>
    r.issues.filter((i) => i.status === 'failed' && i.cvss.score > 0).map((i) => i.id),
  );
}

describe('the self-scan against a planted weakness', function () {
  this.timeout(120_000);
  let service: ServiceHarness;
  let proxy: WeakVerifierProxy;
  let path: string;

  before(async () => {
    service = await startService();
    const org = await service.createOrganization('pro');
    path = `/api/v1/organizations/${org.id}/registrations`;
    proxy = await startWeakVerifierProxy(await baseUrl(service), (claims) =>
      service.token({ sub: claims.sub, ...(claims.scope ? { scope: claims.scope } : {}) }),
    );
  });

  after(async () => {
    await proxy?.close();
    await service?.close();
  });

  it('finds nothing on the service itself', async () => {
    const { findings } = await scan(`${await baseUrl(service)}${path}`, await service.token());
    expect(findings).to.deep.equal([]);
  });

  it('reports alg none, not-verified and the other forgeries when signatures are not checked', async () => {
    const { findings } = await scan(`${proxy.url}${path}`, await service.token());
    expect(findings).to.include.members([
      'broken_authentication.alg_none',
      'broken_authentication.not_verified',
      'broken_authentication.null_signature',
      'broken_authentication.kid_injection',
      'broken_authentication.jwk_injection',
    ]);
  });
});

/** The harness's listening URL (its supertest agent is bound to it). */
async function baseUrl(service: ServiceHarness): Promise<string> {
  const response = await service.request.get('/healthz');
  const url = new URL((response as unknown as { request: { url: string } }).request.url);
  return url.origin;
}
