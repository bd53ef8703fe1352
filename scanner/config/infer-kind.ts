/**
 * The scan a config file's `target` asks for when it names no `kind`: a description file (`.json`, `.yaml`, `.yml`,
 * or a URL ending in one) is an OpenAPI scan, an endpoint whose path says GraphQL a GraphQL scan, anything else one
 * endpoint scanned as curl would call it.
 */
import type { ConfigKind } from './config-values.js';

export function inferKind(target: string): ConfigKind {
  let path = target;
  try {
    path = new URL(target).pathname;
  } catch {
    // a file name
  }
  if (/\.(json|ya?ml)$/i.test(path)) return 'openapi';
  if (/\/(graphql|gql)\/?$/i.test(path)) return 'graphql';
  return 'curl';
}
