/**
 * SIMULATED template engine for the demo's greeting-card preview: `{{ expression }}` with integers, quoted strings,
 * the card's variables and `*`, `+`, `-` between them, Jinja2's way (`7*'7'` repeats the string). Only arithmetic and
 * variable lookups: nothing reaches the process, the file system or the network. The vulnerable twin renders the
 * client's message as a template; the secure twin only substitutes the named variables in it (`{{recipient}}`).
 * (A target for the template-injection check of docs/architecture.md §2.10.)
 */

export class TemplateError extends Error {}

type Value = number | string;

function term(token: string, variables: Record<string, string>): Value {
  if (/^\d+$/.test(token)) return Number(token);
  const quoted = /^(['"])(.*)\1$/.exec(token);
  if (quoted) return quoted[2];
  if (/^[A-Za-z_]\w*$/.test(token)) {
    if (!(token in variables)) throw new TemplateError(`UndefinedError: '${token}' is undefined`);
    return variables[token];
  }
  throw new TemplateError(`TemplateSyntaxError: unexpected '${token}'`);
}

function apply(left: Value, op: string, right: Value): Value {
  if (op === '*') {
    if (typeof left === 'number' && typeof right === 'number') return left * right;
    if (typeof left === 'number' && typeof right === 'string') return right.repeat(Math.min(left, 100));
    if (typeof left === 'string' && typeof right === 'number') return left.repeat(Math.min(right, 100));
  }
  if (op === '+' && typeof left === typeof right) return (left as number) + (right as number);
  if (op === '-' && typeof left === 'number' && typeof right === 'number') return left - right;
  throw new TemplateError(`TypeError: unsupported operand type(s) for ${op}`);
}

function evaluate(expression: string, variables: Record<string, string>): string {
  const tokens: string[] = expression.match(/'[^']*'|"[^"]*"|[*+-]|[^\s*+-]+/g) ?? [];
  if (tokens.length === 0 || tokens.length % 2 === 0) throw new TemplateError('TemplateSyntaxError: bad expression');
  let value = term(tokens[0], variables);
  for (let i = 1; i < tokens.length; i += 2) value = apply(value, tokens[i], term(tokens[i + 1], variables));
  return String(value);
}

/** Renders a template of the tiny language (vulnerable twin). */
export function renderTemplate(source: string, variables: Record<string, string>): string {
  if (source.length > 2000) throw new TemplateError('TemplateSyntaxError: template too long');
  return source.replace(/\{\{([^}]*)\}\}/g, (_m, expression: string) => evaluate(expression.trim(), variables));
}

/** Substitutes `{{name}}` for known variables only and leaves everything else as written (secure twin). */
export function fillPlaceholders(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g, (whole, name: string) => variables[name] ?? whole);
}
