/** The OpenAPI 3.1 document of the public API (`schemas/openapi.json`), bundled, loaded once, served as is. */
import { readFileSync } from 'node:fs';
import { fromRoot } from '../../lib/project-root.js';
import { bundleSchemas, schemasById } from './bundle-schemas.js';

let cached: Record<string, unknown> | undefined;

export function loadOpenApiDocument(): Record<string, unknown> {
  if (!cached) {
    const source = JSON.parse(readFileSync(fromRoot('schemas', 'openapi.json'), 'utf8')) as Parameters<
      typeof bundleSchemas
    >[0];
    cached = bundleSchemas(source, schemasById(fromRoot('schemas')));
    deepFreeze(cached);
  }
  return cached;
}

function deepFreeze(value: unknown): void {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
}
