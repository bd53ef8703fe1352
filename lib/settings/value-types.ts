/**
 * How each setting type reads text (a flag or a variable), checks a value given in code, and writes a value back as
 * text. A problem is thrown as an Error whose message completes the setting's name (`must be an integer`).
 */
import type { SettingDeclaration } from './declaration.js';

interface ValueType<S extends SettingDeclaration = SettingDeclaration> {
  parse(text: string, setting: S): unknown;
  accept(value: unknown, setting: S): unknown;
  format(value: unknown, setting: S): string;
  /** Shown after the flag in `--help` and the README. */
  valueName(setting: S): string;
}

const problem = (message: string): Error => new Error(message);

const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = {
  true: true,
  '1': true,
  yes: true,
  on: true,
  false: false,
  '0': false,
  no: false,
  off: false,
};

function text(value: unknown): string {
  if (typeof value !== 'string') throw problem('must be a string');
  return value;
}

function url(value: string, protocols: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw problem('must be an absolute URL');
  }
  if (!protocols.includes(parsed.protocol))
    throw problem(`must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL`);
  return value;
}

function bounded(n: number, setting: { type: string; min?: number; max?: number }): number {
  if (setting.type === 'port') {
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw problem('must be a port number from 0 to 65535');
    return n;
  }
  if (!Number.isFinite(n) || (setting.type === 'integer' && !Number.isInteger(n)))
    throw problem(setting.type === 'integer' ? 'must be an integer' : 'must be a number');
  if (setting.min !== undefined && n < setting.min) throw problem(`must be ≥ ${setting.min}`);
  if (setting.max !== undefined && n > setting.max) throw problem(`must be ≤ ${setting.max}`);
  return n;
}

function listItems(items: readonly unknown[], choices: readonly string[] | undefined): readonly string[] {
  if (!items.every((i): i is string => typeof i === 'string')) throw problem('must be a list of strings');
  const unknown = choices ? items.filter((i) => !choices.includes(i)) : [];
  if (unknown.length) throw problem(`must name only ${choices!.join(', ')} (not ${unknown.join(', ')})`);
  return Object.freeze([...items]);
}

const VALUE_TYPES: { [T in SettingDeclaration['type']]: ValueType<SettingDeclaration & { type: T }> } = {
  string: {
    parse: (value) => value,
    accept: text,
    format: String,
    valueName: () => '<value>',
  },
  url: {
    parse: (value, s) => url(value, s.protocols ?? ['http:', 'https:']),
    accept: (value, s) => url(text(value), s.protocols ?? ['http:', 'https:']),
    format: String,
    valueName: () => '<url>',
  },
  integer: {
    parse: (value, s) => bounded(value.trim() === '' ? NaN : Number(value), s),
    accept: (value, s) => bounded(typeof value === 'number' ? value : NaN, s),
    format: String,
    valueName: () => '<n>',
  },
  number: {
    parse: (value, s) => bounded(value.trim() === '' ? NaN : Number(value), s),
    accept: (value, s) => bounded(typeof value === 'number' ? value : NaN, s),
    format: String,
    valueName: () => '<n>',
  },
  port: {
    parse: (value, s) => bounded(value.trim() === '' ? NaN : Number(value), s),
    accept: (value, s) => bounded(typeof value === 'number' ? value : NaN, s),
    format: String,
    valueName: () => '<port>',
  },
  boolean: {
    parse: (value) => {
      const on = BOOLEAN_TEXT[value.trim().toLowerCase()];
      if (on === undefined) throw problem('must be true or false');
      return on;
    },
    accept: (value) => {
      if (typeof value !== 'boolean') throw problem('must be true or false');
      return value;
    },
    format: String,
    valueName: () => '',
  },
  enum: {
    parse: (value, s) => VALUE_TYPES.enum.accept(value.trim(), s),
    accept: (value, s) => {
      if (typeof value !== 'string' || !s.choices.includes(value))
        throw problem(`must be one of ${s.choices.join(', ')}`);
      return value;
    },
    format: String,
    valueName: (s) => `<${s.choices.join('|')}>`,
  },
  list: {
    parse: (value, s) =>
      listItems(
        value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
        s.choices,
      ),
    accept: (value, s) => {
      if (!Array.isArray(value)) throw problem('must be a list of strings');
      return listItems(value, s.choices);
    },
    format: (value) => (value as readonly string[]).join(','),
    valueName: (s) => (s.choices ? `<${s.choices.join('|')}>` : '<value>'),
  },
  custom: {
    parse: (value, s) => {
      if (!s.parse) throw problem('cannot be given as text');
      return s.parse(value);
    },
    accept: (value, s) => (s.accept ? s.accept(value) : VALUE_TYPES.custom.parse(text(value), s)),
    format: (value, s) => (s.format ? s.format(value) : String(value)),
    valueName: () => '<value>',
  },
};

/** The behaviour of a setting's type. */
export function valueType(setting: SettingDeclaration): ValueType {
  return VALUE_TYPES[setting.type];
}
