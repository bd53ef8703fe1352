/** Scopes and contacts: capped in number, no duplicates. */
import type { FieldError } from '../../../lib/app-error.js';
import { platformPolicy } from './platform-policy.js';
import type { PolicyContext } from './policy-context.js';

export function listProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  for (const [field, max] of [
    ['scopes', platformPolicy.scopes.maxCount],
    ['contacts', platformPolicy.contacts.maxCount],
  ] as const) {
    const values = ctx.config[field];
    if (values.length > max) problems.push({ path: `config.${field}`, message: `must have at most ${max} entries` });
    const seen = new Map<string, number>();
    values.forEach((value, i) => {
      const first = seen.get(value);
      if (first !== undefined)
        problems.push({ path: `config.${field}[${i}]`, message: `duplicates config.${field}[${first}]` });
      else seen.set(value, i);
    });
  }
  return problems;
}
