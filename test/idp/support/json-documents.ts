/**
 * JSON documents served on 127.0.0.1 over HTTPS (a certificate from idp/tls/self-signed.ts), as a client under test
 * serves its client ID metadata document: `set(path, json)` publishes one, every GET is recorded.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateCertificate } from '../../../idp/tls/self-signed.js';

export interface JsonDocuments {
  /** https://127.0.0.1:<port> */
  origin: string;
  set(path: string, json: unknown): string;
  /** Paths requested so far. */
  requested: string[];
  close(): Promise<void>;
}

export async function serveJsonDocuments(): Promise<JsonDocuments> {
  const { cert, key } = generateCertificate(['127.0.0.1']);
  const documents = new Map<string, unknown>();
  const requested: string[] = [];
  const server = createServer({ cert, key }, (req, res) => {
    requested.push(req.url ?? '/');
    const doc = documents.get(req.url ?? '/');
    if (doc === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    set(path, json) {
      documents.set(path, json);
      return `${origin}${path}`;
    },
    requested,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
