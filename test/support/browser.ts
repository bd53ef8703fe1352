/**
 * The browser of the browser tests: CHROMIUM_PATH when set, else the chromium that ships inside the
 * @sparticuz/chromium npm package (so `npm test` needs nothing but npm), else Debian's /usr/bin/chromium.
 */
import { existsSync } from 'node:fs';

export type Browser = { executablePath: string; missing?: undefined } | { executablePath?: undefined; missing: string };

const DEBIAN = '/usr/bin/chromium';

/**
 * Headless, and nothing that reaches out on its own: without the background-networking flags chromium keeps
 * opening connections this machine's closed network refuses.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export async function findChromium(): Promise<Browser> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv)
    return existsSync(fromEnv) ? { executablePath: fromEnv } : { missing: `CHROMIUM_PATH=${fromEnv} does not exist` };
  let packaged = '';
  try {
    // Unpacks its brotli-compressed binary into the temp dir once (about 3 s), then reuses it.
    const { default: chromium } = await import('@sparticuz/chromium');
    const path = await chromium.executablePath();
    if (path && existsSync(path)) return { executablePath: path };
  } catch (err) {
    packaged = ` (@sparticuz/chromium: ${(err as Error).message.split('\n')[0]})`;
  }
  if (existsSync(DEBIAN)) return { executablePath: DEBIAN };
  return {
    missing: `no chromium for ${process.platform}-${process.arch}${packaged}; to enable: apt-get install chromium, or set CHROMIUM_PATH`,
  };
}
