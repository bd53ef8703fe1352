/**
 * The demo's downloadable documents: an in-memory file set with a fake system file beside it — nothing on disk is
 * ever read. The vulnerable twin resolves the requested name against the documents folder as given (`../` climbs out,
 * an absolute path is taken as is) and its "file not found" error shows the resolved path; the secure twin keeps the
 * resolved path inside the folder and says only that the document does not exist.
 * (A target for the path-traversal check of docs/architecture.md §2.10.)
 */
import { posix } from 'node:path';

const DOCUMENTS = '/srv/demo/documents';

const FILES: Record<string, string> = {
  [`${DOCUMENTS}/welcome.txt`]: 'Welcome to the demo shop. Orders ship within two days.',
  [`${DOCUMENTS}/returns.txt`]: 'Returns are accepted within 30 days.',
  '/srv/demo/config/secrets.env': 'DATABASE_URL=postgres://demo:demo-db-password@db.internal/demo',
  '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\ndemo:x:1000:1000::/srv/demo:/bin/sh',
};

export type DocumentRead = { content: string } | { status: 400 | 404; error: string };

export function readDocument(name: string, secure: boolean): DocumentRead {
  // The path module is POSIX: a Windows spelling (`..\`) is just a strange file name here.
  const resolved = posix.resolve(DOCUMENTS, name);
  if (secure) {
    if (!resolved.startsWith(`${DOCUMENTS}/`)) return { status: 400, error: 'file: a document of the shop' };
    const content = FILES[resolved];
    return content === undefined ? { status: 404, error: 'no such document' } : { content };
  }
  const content = FILES[resolved];
  return content === undefined
    ? { status: 404, error: `ENOENT: no such file or directory, open '${resolved}'` }
    : { content };
}
