/** Ajv's errors in the project's words: `{ path, message }` with dotted paths, without importing Ajv itself. */
import type { ErrorObject } from 'ajv/dist/2020.js';

/** Ajv errors as `{ path, message }` with dotted paths and [index] (e.g. `config.redirectUris[2]`). */
export function toFieldErrors(
  errors: ErrorObject[] | null | undefined,
  prefix = '',
): { path: string; message: string }[] {
  return (errors ?? []).map((e) => {
    const segments = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'additionalProperties') segments.push(String(e.params.additionalProperty));
    if (e.keyword === 'required') segments.push(String(e.params.missingProperty));
    let path = prefix;
    for (const seg of segments) path += /^\d+$/.test(seg) ? `[${seg}]` : path ? `.${seg}` : seg;
    const message =
      e.keyword === 'additionalProperties'
        ? 'is not a known field'
        : e.keyword === 'required'
          ? 'is required'
          : (e.message ?? 'is invalid');
    return { path, message };
  });
}
