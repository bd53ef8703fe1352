/**
 * Reads an API description from a file or an http(s) URL (JSON or YAML) and checks its outline: OpenAPI 3.x as it is,
 * Swagger 2.0 converted to OpenAPI 3 first (swagger-2.ts). The description is untrusted: its size, YAML aliases,
 * nesting and expanded size are bounded (description-limits.ts) and each refusal is one line naming the limit.
 */
import { stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { got } from 'got';
import { load } from 'js-yaml';
import { scannerError } from '../errors.js';
import { firstBrokenRef } from './check-refs.js';
import {
  assertExpandedSize,
  MAX_DEPTH,
  MAX_DESCRIPTION_BYTES,
  MAX_YAML_ALIASES,
  tooLarge,
} from './description-limits.js';
import { convertSwagger2 } from './swagger-2.js';

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
};

export interface LoadedDocument {
  document: OpenApiDocument;
  /** Where it came from: an absolute URL for remote documents (relative `servers` resolve against it). */
  source: string;
  remote: boolean;
  /** Set when the description was converted before the scan (`Swagger 2.0`): the report says so. */
  convertedFrom?: string;
}

const isCoded = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error as { code: string }).code === 'invalid_spec';

/** Reads a stream to the end, refusing it as soon as it passes the size limit (nothing beyond is kept). */
async function readCapped(stream: AsyncIterable<Buffer>, where: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_DESCRIPTION_BYTES) throw tooLarge(where, undefined);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readRemote(source: string): Promise<string> {
  try {
    const stream = got.stream(source, { retry: { limit: 0 }, timeout: { request: 30_000 }, throwHttpErrors: false });
    const response = await new Promise<{ statusCode: number; headers: Record<string, unknown> }>((ok, fail) => {
      stream.once('response', ok);
      stream.once('error', fail);
    });
    if (response.statusCode !== 200) {
      stream.destroy();
      throw scannerError('invalid_spec', `${source}: answered ${response.statusCode}`);
    }
    const declared = Number(response.headers['content-length']);
    if (declared > MAX_DESCRIPTION_BYTES) {
      stream.destroy();
      throw tooLarge(source, declared);
    }
    try {
      return await readCapped(stream, source);
    } finally {
      stream.destroy();
    }
  } catch (error) {
    if (isCoded(error)) throw error;
    throw scannerError(
      'invalid_spec',
      `${source}: cannot be fetched (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

async function readLocal(source: string, cwd: string): Promise<string> {
  const path = resolve(cwd, source);
  try {
    const { size } = await stat(path);
    if (size > MAX_DESCRIPTION_BYTES) throw tooLarge(source, size);
    // A special file (a FIFO, /dev/zero) has no size to check: the read itself stops at the limit.
    return await readCapped(createReadStream(path), source);
  } catch (error) {
    if (isCoded(error)) throw error;
    throw scannerError(
      'invalid_spec',
      `${source}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

function parse(text: string, where: string): unknown {
  try {
    return text.trimStart().startsWith('{')
      ? JSON.parse(text)
      : load(text, { filename: where, maxAliases: MAX_YAML_ALIASES, maxDepth: MAX_DEPTH });
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    if (/alias/i.test(message) && /max|limit|exceed/i.test(message))
      throw scannerError('invalid_spec', `${where}: more than ${MAX_YAML_ALIASES} YAML aliases; refused (${message})`);
    throw scannerError('invalid_spec', `${where}: neither JSON nor YAML (${message})`);
  }
}

export async function loadOpenApiDocument(source: string, cwd: string): Promise<LoadedDocument> {
  const remote = /^https?:\/\//i.test(source);
  const text = remote ? await readRemote(source) : await readLocal(source, cwd);
  const where = source;
  const parsed = parse(text, where);
  assertExpandedSize(where, parsed);
  let doc = parsed as Partial<OpenApiDocument> | null;
  let convertedFrom: string | undefined;
  const swagger = typeof doc === 'object' && doc !== null ? (doc as { swagger?: unknown }).swagger : undefined;
  if (swagger !== undefined) {
    if (swagger !== '2.0')
      throw scannerError(
        'invalid_spec',
        `${where}: a Swagger ${typeof swagger === 'string' ? swagger : JSON.stringify(swagger)} description; only Swagger 2.0 and OpenAPI 3.x are scanned`,
      );
    doc = convertSwagger2(where, doc as Record<string, unknown>);
    convertedFrom = 'Swagger 2.0';
  }
  if (typeof doc !== 'object' || doc === null || typeof doc.openapi !== 'string' || !/^3\./.test(doc.openapi)) {
    throw scannerError('invalid_spec', `${where}: not an OpenAPI 3 description (no "openapi: 3.x" field)`);
  }
  if (typeof doc.paths !== 'object' || doc.paths === null || Object.keys(doc.paths).length === 0) {
    throw scannerError('invalid_spec', `${where}: has no paths to scan`);
  }
  const broken = firstBrokenRef(doc, doc);
  if (broken) throw scannerError('invalid_spec', `${where}: ${broken}`);
  return { document: doc as OpenApiDocument, source: where, remote, ...(convertedFrom ? { convertedFrom } : {}) };
}
