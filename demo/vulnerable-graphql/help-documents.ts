/**
 * The help documents of the demo's `helpDocument(path)` query: an in-memory file set (nothing on disk is read).
 * Vulnerable twin: the path is joined onto `/srv/shop/help` as given, so `../../../etc/passwd` reads the fake
 * system file. Secure twin: the normalised path must stay under the help directory.
 * (A target for the path-traversal check of docs/architecture.md §2.10.)
 */
import { posix } from 'node:path';

const ROOT = '/srv/shop/help';
const FILES: Record<string, string> = {
  '/srv/shop/help/readme.txt': 'Welcome to the demo shop. Orders ship within two days.',
  '/srv/shop/help/returns.txt': 'Returns are accepted within 30 days.',
  '/srv/shop/config/database.yml': 'url: postgres://shop:shop-db-password@db.internal/shop',
  '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\nshop:x:1000:1000::/srv/shop:/bin/sh',
};

export function readHelpDocument(path: string, secure: boolean): string {
  const resolved = posix.resolve(ROOT, path);
  if (secure && !resolved.startsWith(`${ROOT}/`)) throw new Error('path: a document of the help directory');
  const content = FILES[resolved];
  if (content === undefined) throw new Error(`ENOENT: no such file or directory, open '${resolved}'`);
  return content;
}
