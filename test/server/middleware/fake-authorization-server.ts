/**
 * A scriptable authorization server for introspection and discovery tests: serves a discovery document
 * (pointing at a TestAuth JWKS) and an RFC 7662 endpoint whose answer each test chooses.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type IntrospectionAnswer =
  | { kind: 'json'; body: unknown; status?: number; delayMs?: number }
  | { kind: 'raw'; body: string; status?: number; contentType?: string }
  | { kind: 'hang' };

export interface FakeAuthorizationServer {
  issuer: string;
  introspectionUrl: string;
  /** Decides the answer for each introspected token. */
  answer: (token: string) => IntrospectionAnswer;
  discoveryDown: boolean;
  introspectionCalls: { token: string; authorization?: string; hint?: string }[];
  discoveryFetches: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
  });
}

export async function startFakeAuthorizationServer(jwksUri: string): Promise<FakeAuthorizationServer> {
  const hanging = new Set<() => void>();
  const fake: FakeAuthorizationServer = {
    issuer: '',
    introspectionUrl: '',
    answer: () => ({ kind: 'json', body: { active: false } }),
    discoveryDown: false,
    introspectionCalls: [],
    discoveryFetches: 0,
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      fake.discoveryFetches += 1;
      if (fake.discoveryDown) {
        res.writeHead(503).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: fake.issuer, jwks_uri: jwksUri, introspection_endpoint: fake.introspectionUrl }));
      return;
    }
    if (req.url === '/introspect' && req.method === 'POST') {
      void readBody(req).then((body) => {
        const form = new URLSearchParams(body);
        const token = form.get('token') ?? '';
        fake.introspectionCalls.push({
          token,
          authorization: req.headers.authorization,
          hint: form.get('token_type_hint') ?? undefined,
        });
        const answer = fake.answer(token);
        if (answer.kind === 'hang') {
          hanging.add(() => res.destroy());
          return;
        }
        if (answer.kind === 'json') {
          const send = () =>
            res
              .writeHead(answer.status ?? 200, { 'content-type': 'application/json' })
              .end(JSON.stringify(answer.body));
          if (answer.delayMs) setTimeout(send, answer.delayMs);
          else send();
          return;
        }
        res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'text/html' }).end(answer.body);
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.issuer = `http://127.0.0.1:${port}`;
  fake.introspectionUrl = `${fake.issuer}/introspect`;
  fake.close = async () => {
    for (const end of hanging) end();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
