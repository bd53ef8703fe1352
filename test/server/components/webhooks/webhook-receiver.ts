/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 port 0 that records every request (headers and raw
 * body) and answers the status it is told to; `down()` closes the listener (connections refused) and `up()` listens
 * again on the same port.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** What the next requests are answered (default 204). */
  answer: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let server: Server | undefined;
  let port = 0;
  const receiver: WebhookReceiver = {
    url: '',
    received,
    answer: 204,
    async up() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.statusCode = receiver.answer;
          res.end();
        });
      });
      const listening = server;
      await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
      port = (listening.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}/hooks`;
    },
    async down() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    close: () => receiver.down(),
  };
  await receiver.up();
  return receiver;
}
