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
import { Webhook as Verifier } from 'standardwebhooks';
import { fromRoot } from '../../lib/project-root.js';
import { connectMongo } from '../../server/db/connect.js';
import { migrate } from '../../server/store/migrate.js';
import { createMongoStore } from '../../server/store/mongo-store.js';
import { DEMO } from '../../stack/demo.js';
import { operationClass } from '../../scanner/operation-class.js';
import { DESTRUCTIVE_REASON } from '../../scanner/safety.js';
import { machineToken, userToken } from '../../stack/tokens.js';
import { startStackProcess, type StackProcess } from '../support/stack-process.js';
import { startReceiver } from '../server/components/webhooks/webhook-receiver.js';

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

/** What these tests read of scan:self's JSON report. */
interface SelfScanReport {
  options: { allowDestructive?: boolean };
  completeness: { destructiveRequestsRefused?: number };
  reports: {
    id: string;
    status?: string;
    reason?: string;
    operation?: { id: string; method?: string; url?: string };
    issues: { id: string; status: string; cvss: { score: number } }[];
    scans: {
      request?: { method: string; url: string; headers?: Record<string, string> };
      response?: { statusCode: number; headers?: Record<string, string>; body?: string };
    }[];
  }[];
}

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
  let selfScan: SelfScanReport | undefined;

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

  it('never gives alice, an API user, the review or admin scopes she asks for: the internal surface refuses her', async () => {
    const token = await userToken({
      ...tokenRequest(),
      scope: DEMO.reviewerScopes.join(' '),
      resource: stack.internalAudience,
      redirectUri: DEMO.redirectUri,
      loginHint: DEMO.user,
    });
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { scope?: string };
    expect((claims.scope ?? '').split(' ')).to.not.include.members([DEMO.reviewerScopes[0]]);
    expect((claims.scope ?? '').split(' ')).to.not.include.members([DEMO.reviewerScopes[1]]);
    const queue = await fetch(`${stack.internal}/internal/v1/review-queue`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(queue.status).to.equal(403);
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

  it("hands the requester the IdP's client secret once, then rotates it with a grace and retires the old one at the IdP", async () => {
    const discovery = await json<{ introspection_endpoint: string }>(
      await fetch(`${stack.idp}/.well-known/openid-configuration`),
    );
    const { clientId } = await json<{ clientId: string }>(await call(userAccess, registrationUrl));
    // The IdP authenticates the client at introspection: 200 with the secret it holds, 401 invalid_client otherwise.
    const authenticates = async (secret: string) =>
      (
        await fetch(discovery.introspection_endpoint, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'token=not-a-token',
        })
      ).status;
    const action = (name: string, body: object = {}) =>
      call(userAccess, `${registrationUrl}/actions/${name}`, { method: 'POST', body: JSON.stringify(body) });

    const revealed = await action('reveal-secret');
    const first = (await json<{ clientSecret: string }>(revealed)).clientSecret;
    expect(revealed.status).to.equal(200);
    expect(revealed.headers.get('cache-control')).to.equal('no-store');
    expect((await action('reveal-secret')).status, 'revealed once only').to.equal(409);
    expect(await authenticates(first)).to.equal(200);
    expect(await authenticates(`${first}x`)).to.equal(401);

    const rotated = await action('rotate-secret', { graceSeconds: 600 });
    const rotation = await json<{ clientSecret: string; rotation: { graceSeconds: number; immediate: boolean } }>(
      rotated,
    );
    expect(rotated.status, JSON.stringify(rotation)).to.equal(200);
    expect(rotation.rotation).to.deep.equal({ ...rotation.rotation, graceSeconds: 600, immediate: false });
    expect(await authenticates(first), 'the previous secret during the grace').to.equal(200);
    expect(await authenticates(rotation.clientSecret)).to.equal(200);

    expect((await action('retire-previous-secret')).status).to.equal(200);
    expect(await authenticates(first), 'the previous secret once retired').to.equal(401);
    expect(await authenticates(rotation.clientSecret)).to.equal(200);
  });

  it('signs the events of a submission and its approval to a webhook receiver on loopback', async () => {
    const receiver = await startReceiver();
    try {
      const owner = await userToken({
        ...tokenRequest(),
        scope: [...DEMO.scopes, 'webhooks:read', 'webhooks:write'].join(' '),
        redirectUri: DEMO.redirectUri,
        loginHint: DEMO.user,
      });
      const base = `/organizations/${DEMO.organizationId}`;
      const created = await call(owner, `${base}/webhooks`, {
        method: 'POST',
        body: JSON.stringify({ url: receiver.url, events: ['registration.submitted', 'registration.approved'] }),
      });
      const hook = await json<{ id: string; secret: string }>(created);
      expect(created.status, JSON.stringify(hook)).to.equal(201);

      const registration = await json<Resource>(
        await call(owner, `${base}/registrations`, {
          method: 'POST',
          body: JSON.stringify({
            name: 'Webhook story',
            templateId: 'tpl_web',
            config: { redirectUris: ['https://hooks.example.com/cb'] },
          }),
        }),
      );
      const submitted = await call(owner, `${base}/registrations/${registration.id}/actions/submit`, {
        method: 'POST',
      });
      expect(submitted.status).to.equal(200);
      const reviewer = await userToken({
        ...tokenRequest(),
        scope: DEMO.reviewerScopes.join(' '),
        resource: stack.internalAudience,
        redirectUri: DEMO.redirectUri,
        loginHint: DEMO.reviewer,
      });
      const approved = await fetch(
        `${stack.internal}/internal/v1/organizations/${DEMO.organizationId}/registrations/${registration.id}/actions/approve`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${reviewer}`, 'content-type': 'application/json' },
          body: '{}',
        },
      );
      expect(approved.status).to.equal(200);

      for (let i = 0; i < 100 && receiver.received.length < 2; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const verifier = new Verifier(hook.secret);
      const events = receiver.received.map(
        (m) =>
          verifier.verify(m.body, m.headers as Record<string, string>) as {
            type: string;
            data: { registration: { id: string } };
          },
      );
      expect(events.map((e) => [e.type, e.data.registration.id]).sort()).to.deep.equal([
        ['registration.approved', registration.id],
        ['registration.submitted', registration.id],
      ]);
      // The receiver has the messages before the dispatcher records their answers: wait for the record.
      let statuses: string[] = [];
      for (let i = 0; i < 100; i += 1) {
        const deliveries = await json<{ data: { status: string }[] }>(
          await call(owner, `${base}/webhooks/${hook.id}/deliveries`),
        );
        statuses = deliveries.data.map((d) => d.status);
        if (statuses.every((status) => status === 'succeeded')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(statuses).to.deep.equal(['succeeded', 'succeeded']);
      expect((await call(owner, `${base}/webhooks/${hook.id}`, { method: 'DELETE' })).status).to.equal(204);
    } finally {
      await receiver.close();
    }
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
    const report = JSON.parse(stdout) as SelfScanReport;
    selfScan = report;
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

  it('scan:self sends no destructive request unless asked: DELETE is skipped with the reason, only the objects the scan created are deleted, and the registration made for it is still there', async () => {
    expect(selfScan, 'the scan:self test above ran').to.not.equal(undefined);
    const report = selfScan!;
    expect(report.options.allowDestructive).to.equal(false);
    // Classed as the scanner classes them, from the operation id (`METHOD /path`).
    const classOf = (operationId: string) => {
      const [method, path] = operationId.split(' ');
      return operationClass({ method, path });
    };
    const destructive = report.reports.filter((r) => r.operation && classOf(r.operation.id) === 'destructive');
    expect(destructive.map((r) => r.operation!.id)).to.include(
      'DELETE /organizations/{organizationId}/registrations/{id}',
    );
    // The gate refused them (counted in completeness) and every such check says why it did not run.
    expect(report.completeness.destructiveRequestsRefused).to.be.a('number').and.to.be.greaterThan(0);
    expect(destructive.filter((r) => r.status === 'skipped' && r.reason === DESTRUCTIVE_REASON)).to.not.have.length(0);
    // What was sent: a DELETE only ever targets an object one of the scan's own POSTs created (its clean-up).
    const sent = report.reports.flatMap((r) => r.scans).filter((scan) => scan.request && scan.response);
    const created = new Set(
      sent
        .filter((scan) => scan.request!.method === 'POST' && scan.response!.statusCode < 300)
        .flatMap((scan) => {
          const base = new URL(scan.request!.url).pathname.replace(/\/$/, '');
          const location = scan.response!.headers?.location;
          let id: unknown;
          try {
            id = (JSON.parse(scan.response!.body ?? '') as { id?: unknown }).id;
          } catch {
            id = undefined;
          }
          return [
            ...(location ? [new URL(location, scan.request!.url).pathname] : []),
            ...(typeof id === 'string' ? [`${base}/${encodeURIComponent(id)}`] : []),
          ];
        }),
    );
    // A DELETE in the request line, or in a method override the server may honour (header or query parameter).
    const deleting = (request: { method: string; url: string; headers?: Record<string, string> }): boolean =>
      [
        request.method,
        ...Object.entries(request.headers ?? {})
          .filter(([name]) => /^x-(http-)?method(-override)?$/i.test(name))
          .map(([, value]) => value),
        ...[...new URL(request.url).searchParams].filter(([name]) => /method$/i.test(name)).map(([, value]) => value),
      ].some((method) => method.toUpperCase() === 'DELETE');
    const deletes = sent.filter((scan) => deleting(scan.request!)).map((scan) => new URL(scan.request!.url).pathname);
    expect(deletes.filter((path) => !created.has(path))).to.deep.equal([]);
    // The registration scan:self made for the scan to read, edit and delete is still there.
    const read = report.reports.find(
      (r) => r.operation?.id === 'GET /organizations/{organizationId}/registrations/{id}' && r.operation.url,
    );
    const samAccess = await userToken({
      ...tokenRequest(),
      redirectUri: DEMO.redirectUri,
      loginHint: DEMO.selfScanUser,
    });
    const still = await fetch(read!.operation!.url!, { headers: { authorization: `Bearer ${samAccess}` } });
    expect(still.status).to.equal(200);
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
