/**
 * A deterministic value for a schema (example → default → first enum value → by type and format), so scans of the
 * same description send the same requests (VulnAPI's faker made every run different).
 */
import { resolveRef } from './resolve-ref.js';

type Schema = Record<string, unknown>;

const BY_FORMAT: Record<string, unknown> = {
  uuid: '00000000-0000-4000-8000-000000000000',
  date: '2024-01-01',
  'date-time': '2024-01-01T00:00:00Z',
  email: 'scanner@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  password: 'Passw0rd!x',
  byte: 'c2Nhbm5lcg==',
};

export function sampleValue(document: unknown, input: unknown, depth = 0): unknown {
  const schema = resolveRef<Schema>(document, input);
  if (typeof schema !== 'object' || schema === null) return 'test';
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) {
      if (key !== 'allOf') return sampleValue(document, list[0], depth + 1);
      return Object.assign(
        {},
        ...list.map((s) => sampleValue(document, s, depth + 1)).filter((v) => typeof v === 'object' && v !== null),
      );
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type as unknown[]).find((t) => t !== 'null') : schema.type;
  if (type === 'integer') return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
  if (type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'array') return depth >= 4 ? [] : [sampleValue(document, schema.items, depth + 1)];
  if (type === 'object' || schema.properties) {
    if (depth >= 4) return {};
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(properties).map(([name, sub]) => [name, sampleValue(document, sub, depth + 1)]),
    );
  }
  if (typeof schema.format === 'string' && schema.format in BY_FORMAT) return BY_FORMAT[schema.format];
  return 'test';
}
