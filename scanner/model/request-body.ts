/**
 * An operation's request body as named fields, by its Content-Type: a JSON document, an
 * `application/x-www-form-urlencoded` list or a `multipart/form-data` list of parts — read once, changed, and written
 * back byte-for-byte alike except for what was changed (field order, other parts, the multipart boundary).
 */

export type BodyEncoding = 'json' | 'form' | 'multipart';

export interface MultipartPart {
  name: string;
  /** A file part keeps its file name and type; only text parts are inputs. */
  filename?: string;
  contentType?: string;
  value: string;
}

export type RequestBody =
  | { encoding: 'json'; value: unknown }
  | { encoding: 'form'; fields: [string, string][] }
  | { encoding: 'multipart'; boundary: string; parts: MultipartPart[] };

function headerValue(headers: Record<string, string[]>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key][0];
}

/** The boundary of a `multipart/form-data; boundary=…` Content-Type (quoted or not, RFC 2046 §5.1.1). */
function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

const CRLF = '\r\n';

function parseMultipart(body: string, boundary: string): MultipartPart[] | undefined {
  const parts: MultipartPart[] = [];
  const chunks = body.split(`--${boundary}`);
  // Before the first delimiter is a preamble; after the last (`--`) an epilogue.
  for (const chunk of chunks.slice(1)) {
    if (chunk.startsWith('--')) break;
    const text = chunk.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
    const split = /\r?\n\r?\n/.exec(text);
    if (!split) return undefined;
    const head = text.slice(0, split.index);
    const value = text.slice(split.index + split[0].length);
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    const contentType = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1];
    parts.push({
      name,
      value,
      ...(filename !== undefined ? { filename } : {}),
      ...(contentType ? { contentType } : {}),
    });
  }
  return parts;
}

/** Writes parts with the given boundary (RFC 7578); a value containing the boundary line is the caller's problem. */
export function writeMultipart(boundary: string, parts: readonly MultipartPart[]): string {
  const chunks = parts.map((part) => {
    const file = part.filename !== undefined ? `; filename="${part.filename}"` : '';
    const type = part.contentType ? `${CRLF}Content-Type: ${part.contentType}` : '';
    return `--${boundary}${CRLF}Content-Disposition: form-data; name="${part.name}"${file}${type}${CRLF}${CRLF}${part.value}${CRLF}`;
  });
  return `${chunks.join('')}--${boundary}--${CRLF}`;
}

/** The operation's body as fields, or undefined for no body, another media type, or one that does not parse. */
export function readRequestBody(body: string | undefined, headers: Record<string, string[]>): RequestBody | undefined {
  if (body === undefined) return undefined;
  const type = (headerValue(headers, 'content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded'))
    return { encoding: 'form', fields: [...new URLSearchParams(body)] };
  if (type.startsWith('multipart/form-data')) {
    const boundary = boundaryOf(headerValue(headers, 'content-type')!);
    const parts = boundary ? parseMultipart(body, boundary) : undefined;
    return boundary && parts ? { encoding: 'multipart', boundary, parts } : undefined;
  }
  // JSON by its type, or (a curl command without one) by its look.
  if (type === '' || type.includes('json')) {
    try {
      return { encoding: 'json', value: JSON.parse(body) as unknown };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function writeRequestBody(body: RequestBody): string {
  if (body.encoding === 'json') return JSON.stringify(body.value);
  if (body.encoding === 'form') return new URLSearchParams(body.fields).toString();
  return writeMultipart(body.boundary, body.parts);
}
