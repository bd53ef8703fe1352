/**
 * The story end to end, on real processes: `npm start`'s stack (IdP + service) as a child process, a user token by
 * headless authorization code + PKCE and a machine token by client credentials, a registration created, edited,
 * submitted, approved by a reviewer on the internal surface, a change set proposed; then the scanner CLI attacks the
 * service with those tokens and finds nothing above CVSS 0.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { connectMongo } from '../../server/db/connect.js';
import { migrate } from '../../server/db/migrate.js';
import { createMongoStore } from '../../server/store/mongo-store.js';
import { DEMO } from '../../stack/demo.js';
import { machineToken, userToken } from '../../stack/tokens.js';
import { startStackProcess, type StackProcess } from '../support/stack-process.js';

const run = promisify(execFile);

interface Resource {
  id: string;
  status: string;
  actions: string[];
}
interface List {
  data: { id: string }[];
}
const json = async <T>(response: Response) => (await response.json()) as T;

/** A database of its own for this run when the suite runs on MongoDB (the stack then uses it, like a staging deploy). */
function isolatedMongoUri(): string | undefined {
  if (!process.env.MONGODB_URI) return undefined;
  const url = new URL(process.env.MONGODB_URI);
  url.pathname = `/gatehouse_e2e_${randomBytes(4).toString('hex')}`;
  return url.href;
}

describe('the end-to-end story (npm start as a process, the scanner as a CLI)', function () {
  this.timeout(180_000);
  const mongoUri = isolatedMongoUri();
  let stack: StackProcess;
  let userAccess: string;
  let machineAccess: string;
  let registrationUrl: string;
  let registrationId: string;

  before(async () => {
    if (mongoUri) {
      // What `npm start` does first (its prestart): the service refuses an unmigrated database.
      const connection = await connectMongo(mongoUri);
      await migrate(connection);
      await connection.close();
    }
    stack = await startStackProcess({ MONGODB_URI: mongoUri });
  });

  after(async () => {
    if (!stack) return;
    const { code, output } = await stack.stop();
    expect(code, output).to.equal(0);
    expect(output).to.include('gatehouse: stopped');
    if (mongoUri) {
      const store = await createMongoStore(mongoUri);
      await store.connection.dropDatabase();
      await store.close();
    }
  });

  const api = (path: string) => `${stack.service}/api/v1${path}`;
  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(api(path), {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
    });
  const tokenRequest = () => ({
    issuer: stack.idp,
    clientId: DEMO.clientId,
    clientSecret: DEMO.clientSecret,
    scope: DEMO.scopes.join(' '),
    resource: stack.audience,
  });

  it('issues a user token through a headless authorization code + PKCE flow, and a machine token through client credentials', async () => {
    userAccess = await userToken({ ...tokenRequest(), redirectUri: DEMO.redirectUri, loginHint: DEMO.user });
    machineAccess = await machineToken(tokenRequest());
    const [user, machine] = await Promise.all([
      call(userAccess, '/organizations'),
      call(machineAccess, '/organizations'),
    ]);
    expect(user.status).to.equal(200);
    expect(machine.status).to.equal(200);
    expect((await json<List>(user)).data.map((o) => o.id)).to.deep.equal([DEMO.organizationId]);
  });

  it('creates, edits and submits a registration as the user', async () => {
    const base = `/organizations/${DEMO.organizationId}/registrations`;
    const created = await call(userAccess, base, {
      method: 'POST',
      body: JSON.stringify({
        name: 'Billing portal',
        templateId: 'tpl_web',
        config: { redirectUris: ['https://billing.example.com/cb'] },
      }),
    });
    expect(created.status).to.equal(201);
    const body = await json<Resource>(created);
    registrationId = body.id;
    registrationUrl = `${base}/${registrationId}`;
    expect(body.actions).to.include.members(['edit', 'submit']);

    const edited = await call(userAccess, registrationUrl, {
      method: 'PATCH',
      headers: { 'if-match': created.headers.get('etag')! },
      body: JSON.stringify({ description: 'Invoices for customers' }),
    });
    expect(edited.status).to.equal(200);

    const submitted = await call(userAccess, `${registrationUrl}/actions/submit`, {
      method: 'POST',
      headers: { 'if-match': edited.headers.get('etag')! },
    });
    expect(submitted.status).to.equal(200);
    expect((await json<Resource>(submitted)).status).to.equal('pending_review');
  });

  it('lets reviewer rita approve it on the internal surface, then the machine identity proposes a change set', async () => {
    const reviewer = await userToken({
      ...tokenRequest(),
      scope: DEMO.reviewerScopes.join(' '),
      resource: stack.internalAudience,
      redirectUri: DEMO.redirectUri,
      loginHint: DEMO.reviewer,
    });
    const internalRegistration = `${stack.internal}/internal/v1/organizations/${DEMO.organizationId}/registrations/${registrationId}`;
    // The public listener has no such route, whatever the token.
    const wrongDoor = await fetch(`${stack.service}/internal/v1/review-queue`, {
      headers: { authorization: `Bearer ${reviewer}` },
    });
    expect(wrongDoor.status).to.equal(404);
    const queue = await fetch(`${stack.internal}/internal/v1/review-queue`, {
      headers: { authorization: `Bearer ${reviewer}` },
    });
    expect(queue.status).to.equal(200);
    expect(JSON.stringify(await queue.json())).to.include(registrationId);

    const approved = await fetch(`${internalRegistration}/actions/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reviewer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Redirect URIs verified' }),
    });
    const approval = await json<Resource & { clientId?: string }>(approved);
    expect(approved.status, JSON.stringify(approval)).to.equal(200);
    expect(approval.status).to.equal('active');

    // Approval registers the client at the IdP (RFC 7591) through the provisioning outbox.
    let registration = await json<Resource & { clientId?: string; provisioning?: { status: string } }>(
      await call(machineAccess, registrationUrl),
    );
    for (let i = 0; i < 100 && registration.provisioning?.status !== 'done'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      registration = await json(await call(machineAccess, registrationUrl));
    }
    expect(registration.provisioning?.status).to.equal('done');
    expect(registration.clientId).to.be.a('string');
    expect(registration.status).to.equal('active');
    expect(registration.actions).to.include('propose_change_set');

    const proposed = await call(machineAccess, `${registrationUrl}/change-sets`, {
      method: 'POST',
      body: JSON.stringify({
        changes: { redirectUris: ['https://billing.example.com/cb', 'https://billing.example.com/cb2'] },
      }),
    });
    const changeSet = await json<Resource>(proposed);
    expect(proposed.status, JSON.stringify(changeSet)).to.equal(201);
    expect(changeSet.status).to.equal('pending_review');
  });

  it("scans every operation of the service's OpenAPI document (npm run scan:self) and finds nothing above CVSS 0", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', fromRoot('stack', 'scan-self-bin.ts'), '--report-format', 'json', '--no-progress'],
      {
        cwd: fromRoot(),
        env: {
          ...process.env,
          API_AUTH_ISSUER: stack.idp,
          PUBLIC_BASE_URL: stack.service,
          API_AUTH_AUDIENCE: stack.audience,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const report = JSON.parse(stdout) as {
      reports: {
        id: string;
        operation?: { id: string };
        issues: { id: string; status: string; cvss: { score: number } }[];
      }[];
    };
    // It says whom it scans as, and why the rate limit will not cost it coverage.
    expect(stderr).to.include(`as ${DEMO.selfScanUser} in ${DEMO.selfScanOrganizationId} (enterprise plan`);
    const operations = new Set(report.reports.map((r) => r.operation?.id).filter(Boolean));
    expect(operations.size).to.be.at.least(15);
    const findings = report.reports.flatMap((r) =>
      r.issues
        .filter((i) => i.status === 'failed' && i.cvss.score > 0)
        .map((i) => `${r.operation?.id} ${r.id}: ${i.id}`),
    );
    expect(findings).to.deep.equal([]);
  });

  it('runs every scanner check against single endpoints with the user token (scan curl) and finds nothing above CVSS 0', async () => {
    const targets = ['/organizations', `/organizations/${DEMO.organizationId}/registrations`, registrationUrl];
    for (const path of targets) {
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          fromRoot('scanner', 'bin.ts'),
          'scan',
          'curl',
          api(path),
          '-H',
          `Authorization: Bearer ${userAccess}`,
          '--report-format',
          'json',
          '--no-progress',
        ],
        { cwd: fromRoot(), maxBuffer: 64 * 1024 * 1024 },
      );
      const report = JSON.parse(stdout) as {
        reports: { id: string; scans: unknown[]; issues: { id: string; status: string; cvss: { score: number } }[] }[];
      };
      const ran = report.reports.map((r) => r.id);
      expect(ran).to.include.members([
        'auth.baseline',
        'jwt.alg_none',
        'jwt.not_verified',
        'misconfiguration.http_headers',
      ]);
      const findings = report.reports.flatMap((r) =>
        r.issues.filter((i) => i.status === 'failed' && i.cvss.score > 0).map((i) => `${r.id}: ${i.id}`),
      );
      expect(findings, `findings on ${path}`).to.deep.equal([]);
    }
  });
});
