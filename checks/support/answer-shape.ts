/**
 * Whether two answers are "the same answer" for a differential: same status and same shape — for JSON, the same keys
 * and value types and the same list lengths (values may differ: ids, times, echoed input); for other bodies, the
 * same length within a few percent once the probe's own input is taken out. A tautology that returns the baseline's
 * rows and a contradiction that returns none differ in shape; an id or a timestamp does not.
 */
import type { ProbeResponse } from '../../scanner/api.js';

function shapeOf(value: unknown, depth = 0): string {
  if (depth > 6) return '…';
  if (Array.isArray(value)) return `[${value.length}:${value.length > 0 ? shapeOf(value[0], depth + 1) : ''}]`;
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, child]) => `${key}:${shapeOf(child, depth + 1)}`).join(',')}}`;
  }
  return typeof value;
}

function jsonShape(body: string): string | undefined {
  try {
    return shapeOf(JSON.parse(body));
  } catch {
    return undefined;
  }
}

/** `body` without the given strings (the probe's payload echoed back must not make two answers differ). */
function without(body: string, echoes: readonly string[]): string {
  return echoes.filter((e) => e.length > 0).reduce((text, echo) => text.split(echo).join(''), body);
}

export function sameAnswer(a: ProbeResponse, b: ProbeResponse, echoes: readonly string[] = []): boolean {
  if (a.status !== b.status) return false;
  const [shapeA, shapeB] = [jsonShape(a.body), jsonShape(b.body)];
  if (shapeA !== undefined || shapeB !== undefined) return shapeA === shapeB;
  const [textA, textB] = [without(a.body, echoes), without(b.body, echoes)];
  if (textA === textB) return true;
  return Math.abs(textA.length - textB.length) <= Math.max(8, 0.05 * Math.max(textA.length, textB.length));
}

export const isServerError = (response: ProbeResponse): boolean => response.status >= 500;
