/** Before a scan: can the target be reached (TCP, and TLS unless -k)? Failure is fatal with one line (exit 1). */
import net from 'node:net';
import tls from 'node:tls';
import { readFileSync } from 'node:fs';
import { scannerError } from './errors.js';
import type { TlsOptions } from './http.js';

function pem(path: string | undefined, flag: string): Buffer | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path);
  } catch {
    throw scannerError('invalid_argument', `${flag} ${path}: file cannot be read`);
  }
}

export async function assertReachable(target: string, options: { tls?: TlsOptions; timeoutMs: number }): Promise<void> {
  const url = new URL(target);
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const where = `${url.protocol}//${url.host}`;
  const ca = pem(options.tls?.caFile, '--cacert');
  const cert = pem(options.tls?.certFile, '--cert');
  const key = pem(options.tls?.keyFile, '--key');
  await new Promise<void>((resolvePromise, reject) => {
    const socket = secure
      ? tls.connect({
          host,
          port,
          servername: net.isIP(host) ? undefined : host,
          rejectUnauthorized: !options.tls?.insecure,
          ca,
          cert,
          key,
        })
      : net.connect({ host, port });
    const fail = (error: NodeJS.ErrnoException | Error): void => {
      socket.destroy();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ECONNREFUSED') reject(scannerError('unreachable', `${where}: connection refused`));
      else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
        reject(scannerError('unreachable', `${where}: host not found`));
      else if (secure && code && (!/^E[A-Z]+$/.test(code) || code === 'EPROTO')) {
        reject(
          scannerError(
            'tls_error',
            `${where}: TLS certificate not trusted (${code}); use -k to skip verification or --cacert`,
          ),
        );
      } else reject(scannerError('unreachable', `${where}: ${error.message}`));
    };
    socket.setTimeout(options.timeoutMs, () => fail(new Error(`no connection after ${options.timeoutMs} ms`)));
    socket.once('error', fail);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      socket.end();
      socket.destroy();
      resolvePromise();
    });
  });
}
