/** A relying party's back-channel logout endpoint on 127.0.0.1: records every logout_token it receives. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BackchannelReceiver {
  uri: string;
  tokens: string[];
  /** Resolves with the next logout token (or one already received). */
  next(): Promise<string>;
  close(): Promise<void>;
}

export async function startBackchannelReceiver(): Promise<BackchannelReceiver> {
  const tokens: string[] = [];
  const waiting: ((token: string) => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token');
      if (req.method === 'POST' && token) {
        tokens.push(token);
        waiting.splice(0).forEach((resolve) => resolve(token));
        res.writeHead(200).end();
      } else {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/backchannel-logout`,
    tokens,
    next: () =>
      tokens.length ? Promise.resolve(tokens[tokens.length - 1]) : new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
