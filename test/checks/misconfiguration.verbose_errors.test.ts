import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { resultOf } from '../support/scan.js';
import { startDemoTarget, type DemoTarget } from '../fixtures/targets/demo-api-target.js';
import { startTarget, type Target } from '../fixtures/targets/start-target.js';
import { expectResult } from './expect-result.js';
import { scanPassively } from './passive-scan.js';

const ID = 'misconfiguration.verbose_errors';
const STACK = 'security_misconfiguration.stack_trace_exposed';
const DATABASE = 'security_misconfiguration.database_error_exposed';
const DEBUG = 'security_misconfiguration.debug_page_exposed';
const BROKEN = [{}, { url: "/api/products?category=books'" }];

/** Fixed pages as each framework prints them in development. */
const PAGES: Record<string, { type: string; body: string }> = {
  '/werkzeug': {
    type: 'text/html',
    body: '<title>ZeroDivisionError // Werkzeug Debugger</title><div class="debugger">The debugger caught an exception in your WSGI application.</div>',
  },
  '/django': {
    type: 'text/html',
    body: "<p>You're seeing this error because you have <code>DEBUG = True</code> in your Django settings file.</p>",
  },
  '/python': {
    type: 'text/plain',
    body: 'Traceback (most recent call last):\n  File "/srv/app.py", line 12, in handler\n    1 / 0\nZeroDivisionError: division by zero',
  },
  '/spring': {
    type: 'application/json',
    body: '{"timestamp":"2026-01-01T00:00:00Z","status":500,"error":"Internal Server Error","trace":"java.lang.NullPointerException\\n\\tat com.example.Api.get(Api.java:42)\\n\\tat com.example.Api.run(Api.java:12)"}',
  },
  '/graphql': {
    type: 'application/json',
    body: '{"errors":[{"message":"boom","extensions":{"code":"INTERNAL_SERVER_ERROR","stacktrace":["Error: boom","    at resolve (/srv/app/schema.js:12:9)","    at field (/srv/node_modules/graphql/execution/execute.js:481:20)"]}}]}',
  },
  '/plain': {
    type: 'application/json',
    body: '{"error":"not found","hint":"look at /docs: at most 10 items (see page 2:3)"}',
  },
};

describe('misconfiguration.verbose_errors', () => {
  let demo: DemoTarget | undefined;
  let target: Target | undefined;
  afterEach(async () => {
    await demo?.close();
    await target?.close();
    demo = target = undefined;
  });

  it("fails with a stack trace (6.3) and a database error (6.3) in the demo's answer to a quote, sending nothing itself", async () => {
    demo = await startDemoTarget();
    const outcome = await scanPassively(demo.url('/api/products?category=books'), ID, { sends: BROKEN });
    expectResult(outcome, ID, { status: 'failed', issues: { [STACK]: 6.3, [DATABASE]: 6.3 } });
    const details = resultOf(outcome, ID).findings.map((f) => f.detail);
    expect(details).to.deep.equal([
      'Node.js stack trace in a 500 answer to GET /api/products sent by test.sender',
      'SQLite error "SQLITE_ERROR" in a 500 answer to GET /api/products sent by test.sender',
    ]);
    expect(outcome.requestsSent).to.equal(2);
  });

  it('passes on the secure twin, which answers the same requests with a generic message', async () => {
    demo = await startDemoTarget({ secure: true });
    const outcome = await scanPassively(demo.url('/api/products?category=books'), ID, { sends: BROKEN });
    expectResult(outcome, ID, { status: 'passed', requests: 0 });
  });

  it("recognises Express's own development error page", async () => {
    const app = express();
    app.set('env', 'test'); // the development page, without logging the stack to the test's terminal
    app.get('/boom', () => {
      throw new Error('boom');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const outcome = await scanPassively(`http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`, ID);
      expectResult(outcome, ID, { status: 'failed', issues: { [DEBUG]: 6.9, [STACK]: 6.3 } });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('recognises Werkzeug and Django debug pages, Python tracebacks, Spring Boot and GraphQL traces, and passes an ordinary error', async () => {
    target = await startTarget((req, res) => {
      const page = PAGES[req.url ?? ''] ?? PAGES['/plain'];
      res.writeHead(500, { 'content-type': page.type }).end(page.body);
    });
    const found = async (path: string) =>
      resultOf(await scanPassively(target!.url(path), ID), ID).findings.map((f) => f.issueId);
    expect(await found('/werkzeug')).to.deep.equal([DEBUG]);
    expect(await found('/django')).to.deep.equal([DEBUG]);
    expect(await found('/python')).to.deep.equal([STACK]);
    expect(await found('/spring')).to.deep.equal([DEBUG, STACK]);
    expect(await found('/graphql')).to.deep.equal([STACK]);
    expect(await found('/plain')).to.deep.equal([]);
  });
});
