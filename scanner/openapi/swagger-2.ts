/**
 * Swagger 2.0 descriptions are converted to OpenAPI 3.0 before anything reads them, by @scalar/openapi-upgrader
 * (Scalar's maintained converter, no install script): `host` + `basePath` + `schemes` become `servers`, `consumes` and
 * `in: body`/`formData` parameters a `requestBody`, `definitions` and `securityDefinitions` their `components`.
 */
import { upgradeFromTwoToThree } from '@scalar/openapi-upgrader/2.0-to-3.0';
import { scannerError } from '../errors.js';

export const CONVERTER = '@scalar/openapi-upgrader';

// Its declarations name a type package it does not depend on (@scalar/types): the shape is declared here instead.
const upgrade = upgradeFromTwoToThree as unknown as (document: Record<string, unknown>) => Record<string, unknown>;

export function convertSwagger2(where: string, document: Record<string, unknown>): Record<string, unknown> {
  try {
    return upgrade(structuredClone(document));
  } catch (error) {
    throw scannerError(
      'invalid_spec',
      `${where}: a Swagger 2.0 description that cannot be converted to OpenAPI 3 (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`,
      { cause: error },
    );
  }
}
