/** Reads an OpenAPI 3.x description from a file or an http(s) URL (JSON or YAML) and checks its outline. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { got } from 'got';
import { load } from 'js-yaml';
import { scannerError } from '../errors.js';
import { firstBrokenRef } from './check-refs.js';

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
};

export interface LoadedDocument {
  document: OpenApiDocument;
  /** Where it came from: an absolute URL for remote documents (relative `servers` resolve against it). */
  source: string;
  remote: boolean;
}

async function readSource(source: string, cwd: string): Promise<{ text: string; remote: boolean; where: string }> {
  if (/^https?:\/\//i.test(source)) {
    try {
      const response = await got(source, { retry: { limit: 0 }, timeout: { request: 10_000 }, throwHttpErrors: false });
      if (response.statusCode !== 200) throw scannerError('invalid_spec', `${source}: answered ${response.statusCode}`);
      return { text: response.body, remote: true, where: source };
    } catch (error) {
      if (error instanceof Error && 'code' in error && (error as { code: string }).code === 'invalid_spec') throw error;
      throw scannerError(
        'invalid_spec',
        `${source}: cannot be fetched (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
  try {
    return { text: await readFile(resolve(cwd, source), 'utf8'), remote: false, where: source };
  } catch (error) {
    throw scannerError(
      'invalid_spec',
      `${source}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

export async function loadOpenApiDocument(source: string, cwd: string): Promise<LoadedDocument> {
  const { text, remote, where } = await readSource(source, cwd);
  let parsed: unknown;
  try {
    parsed = text.trimStart().startsWith('{') ? JSON.parse(text) : load(text);
  } catch (error) {
    throw scannerError(
      'invalid_spec',
      `${where}: neither JSON nor YAML (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`,
    );
  }
  const doc = parsed as Partial<OpenApiDocument> | null;
  const swagger = typeof doc === 'object' && doc !== null ? (doc as { swagger?: unknown }).swagger : undefined;
  if (swagger !== undefined) {
    throw scannerError(
      'invalid_spec',
      `${where}: a Swagger ${typeof swagger === 'string' ? swagger : JSON.stringify(swagger)} description; only OpenAPI 3.x is scanned (convert it first, e.g. with swagger2openapi)`,
    );
  }
  if (typeof doc !== 'object' || doc === null || typeof doc.openapi !== 'string' || !/^3\./.test(doc.openapi)) {
    throw scannerError('invalid_spec', `${where}: not an OpenAPI 3 description (no "openapi: 3.x" field)`);
  }
  if (typeof doc.paths !== 'object' || doc.paths === null || Object.keys(doc.paths).length === 0) {
    throw scannerError('invalid_spec', `${where}: has no paths to scan`);
  }
  const broken = firstBrokenRef(doc, doc);
  if (broken) throw scannerError('invalid_spec', `${where}: ${broken}`);
  return { document: doc as OpenApiDocument, source: where, remote };
}
