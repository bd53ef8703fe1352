/**
 * JSON request bodies only (DESIGN.md §1.5): other media types → 415, above 64 KiB → 413, malformed → 400,
 * and keys that could reach an object's prototype (`__proto__`, `constructor`, `prototype`) → 422 before any
 * handler sees them.
 */
import express, { type RequestHandler } from 'express';
import type { AppError, FieldError } from '../../lib/app-error.js';
import { apiError } from '../errors.js';

export const BODY_LIMIT_BYTES = 64 * 1024;
const MAX_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const JSON_TYPES = ['application/json', 'application/*+json'];

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

/** Every forbidden key (with its path) and whether the document nests deeper than MAX_DEPTH. */
function inspect(value: unknown, path: string, depth: number, found: FieldError[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) {
    return value.some((item, i) => inspect(item, pathOf(path, i), depth + 1, found));
  }
  let tooDeep = false;
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) found.push({ path: pathOf(path, key), message: 'is not an allowed key' });
    else if (inspect((value as Record<string, unknown>)[key], pathOf(path, key), depth + 1, found)) tooDeep = true;
  }
  return tooDeep;
}

export function jsonBody(): RequestHandler[] {
  const parse = express.json({ limit: BODY_LIMIT_BYTES, type: JSON_TYPES, strict: true });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (hasBody(req.headers) && !req.is(JSON_TYPES)) {
      next(apiError('unsupported_media_type', 'Request bodies must be `application/json`.'));
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
