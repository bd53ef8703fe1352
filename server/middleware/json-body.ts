/**
 * JSON request bodies only (docs/architecture.md §1.5): other media types, other charsets and bytes that are not UTF-8 → 415,
 * above 64 KiB → 413, malformed → 400. Before any handler sees the body, 422 `validation_failed` with the field path
 * for keys that could reach an object's prototype (`__proto__`, `constructor`, `prototype`), for member names
 * MongoDB cannot store (NUL, a leading `$`, a `.`; so both stores answer alike), for strings
 * that are not well-formed UTF-16 (a lone surrogate, which the store would silently turn into U+FFFD), and for values
 * FerretDB refuses though MongoDB takes them — an array directly inside an array, a number JSON.parse read as
 * ±Infinity (1e400) — so no store answers them with a 500.
 */
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import type { AppError, FieldError } from '../../lib/app-error.js';
import { apiError } from '../errors.js';

export const BODY_LIMIT_BYTES = 64 * 1024;
const MAX_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const JSON_TYPES = ['application/json', 'application/*+json'];
/** With the `u` flag a surrogate pair is one code point, so this matches lone surrogates only. */
const LONE_SURROGATE = /\p{Cs}/u;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** The reason a member name cannot be stored, or undefined. */
function unstorableKey(key: string): string | undefined {
  if (FORBIDDEN_KEYS.has(key)) return 'is not an allowed key';
  if (LONE_SURROGATE.test(key)) return 'is not a well-formed Unicode string (lone surrogate)';
  if (key.includes('\u0000')) return 'is not a storable member name (contains NUL)';
  if (key.startsWith('$')) return 'is not a storable member name (starts with $)';
  if (key.includes('.')) return 'is not a storable member name (contains .)';
  return undefined;
}

/** An error body-parser passes on with our status and type (see fromBodyParserError). */
function notUtf8(): Error {
  return Object.assign(new Error('The request body is not UTF-8.'), { status: 415, type: 'encoding.unsupported' });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return typeof length === 'string' && length.trim() !== '' && Number(length) > 0;
}

/** body-parser's `type`d errors as our codes; undefined for anything else. */
export function fromBodyParserError(err: unknown): AppError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { type, status } = err as { type?: unknown; status?: unknown };
  if (typeof type !== 'string' || typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  switch (type) {
    case 'entity.too.large':
      return apiError('payload_too_large', `Request bodies are limited to ${BODY_LIMIT_BYTES} bytes.`, { cause: err });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return apiError('unsupported_media_type', 'Request bodies must be UTF-8 `application/json`.', { cause: err });
    case 'entity.parse.failed':
      return apiError('invalid_request', 'The request body is not valid JSON.', { cause: err });
    default:
      return apiError('invalid_request', 'The request body could not be read.', { cause: err });
  }
}

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** Every forbidden key or ill-formed string (with its path) and whether the document nests deeper than MAX_DEPTH. */
function inspect(value: unknown, path: string, depth: number, found: FieldError[]): boolean {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value))
      found.push({ path, message: 'is not a well-formed Unicode string (lone surrogate)' });
    return false;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push({ path, message: 'is a number too large to store' });
    return false;
  }
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (Array.isArray(item))
        found.push({ path: pathOf(path, i), message: 'is an array inside an array (not storable)' });
    });
    return value.some((item, i) => inspect(item, pathOf(path, i), depth + 1, found));
  }
  let tooDeep = false;
  for (const key of Object.keys(value)) {
    const problem = unstorableKey(key);
    if (problem) found.push({ path: pathOf(path, key), message: problem });
    else if (inspect((value as Record<string, unknown>)[key], pathOf(path, key), depth + 1, found)) tooDeep = true;
  }
  return tooDeep;
}

export function jsonBody(): RequestHandler[] {
  const parse = express.json({
    limit: BODY_LIMIT_BYTES,
    type: JSON_TYPES,
    strict: true,
    // The API is UTF-8 only: a UTF-16 body (byte-order mark) or bytes that do not decode are 415, never guessed at.
    verify: (_req, _res, buffer) => {
      if (
        buffer.length >= 2 &&
        ((buffer[0] === 0xfe && buffer[1] === 0xff) || (buffer[0] === 0xff && buffer[1] === 0xfe))
      )
        throw notUtf8();
      if (!isUtf8(buffer)) throw notUtf8();
    },
  });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (hasBody(req.headers) && !req.is(JSON_TYPES)) {
      next(apiError('unsupported_media_type', 'Request bodies must be `application/json`.'));
      return;
    }
    // body-parser would decode utf-16 and friends; a charset other than UTF-8 is refused instead.
    const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (hasBody(req.headers) && charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      next(apiError('unsupported_media_type', 'Request bodies must be UTF-8 `application/json`.'));
      return;
    }
    next();
  };
  const rejectDangerousKeys: RequestHandler = (req, _res, next) => {
    const found: FieldError[] = [];
    if (inspect(req.body, '', 0, found)) {
      next(apiError('invalid_request', `The request body nests deeper than ${MAX_DEPTH} levels.`));
      return;
    }
    if (found.length > 0) {
      next(apiError('validation_failed', 'The request body contains keys that are never accepted.', { fields: found }));
      return;
    }
    next();
  };
  return [requireJson, parse, rejectDangerousKeys];
}
