/**
 * `--schema FILE`: a schema the API's owner gives for an endpoint that refuses introspection and suggestions — SDL
 * (`type Query { … }`) or an introspection result as JSON (`{"data":{"__schema":…}}`, `{"__schema":…}`). A file that
 * is neither is a fatal error naming the file and what is wrong.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildClientSchema, buildSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { scannerError } from '../errors.js';

export async function loadSchemaFile(path: string, cwd: string): Promise<GraphQLSchema> {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw scannerError('invalid_argument', `--schema ${path}: ${(error as Error).message}`);
  }
  try {
    if (/^\s*[{[]/.test(text)) {
      const parsed = JSON.parse(text) as { data?: IntrospectionQuery } & Partial<IntrospectionQuery>;
      const introspection = parsed.data ?? parsed;
      if (!introspection.__schema) throw new Error('JSON without a __schema (expected an introspection result)');
      return buildClientSchema(introspection as IntrospectionQuery);
    }
    return buildSchema(text);
  } catch (error) {
    throw scannerError(
      'invalid_argument',
      `--schema ${path}: not a GraphQL schema (SDL or introspection JSON): ${(error as Error).message}`,
    );
  }
}
