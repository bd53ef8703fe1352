/**
 * Declarative settings: each part declares its settings once (env name, type, default, one-line doc),
 * `loadConfig` reads them from an environment, lists every problem in one error, and freezes the result.
 * The same declarations generate the README's configuration tables.
 */

interface SettingBase<T> {
  env: string;
  doc: string;
  /** A default value, or a function computing it from the settings read so far (in declaration order). */
  default?: T | ((partial: Record<string, unknown>) => T | undefined);
  /** Shown in docs instead of the computed default. */
  defaultDoc?: string;
  required?: boolean;
  /** Extra validation; returns a problem message or undefined. */
  check?: (value: T) => string | undefined;
}

export type Setting =
  | (SettingBase<string> & { type: 'string' | 'url'; choices?: readonly string[] })
  | (SettingBase<number> & { type: 'integer' | 'number'; min?: number; max?: number })
  | (SettingBase<boolean> & { type: 'boolean' })
  | (SettingBase<string[]> & { type: 'list'; choices?: readonly string[] });

export type SettingsSpec = Record<string, Setting>;

type ValueOf<S extends Setting> = S extends { type: 'integer' | 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'list' }
      ? string[]
      : string;

export type ConfigOf<Spec extends SettingsSpec> = {
  readonly [K in keyof Spec]: Spec[K] extends { required: true } | { default: unknown }
    ? ValueOf<Spec[K]>
    : ValueOf<Spec[K]> | undefined;
};

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

function parse(setting: Setting, raw: string): { value?: unknown; problem?: string } {
  const trimmed = raw.trim();
  switch (setting.type) {
    case 'string':
      if (setting.choices && !setting.choices.includes(trimmed)) {
        return { problem: `must be one of ${setting.choices.join(', ')} (got "${trimmed}")` };
      }
      return { value: trimmed };
    case 'url':
      try {
        const url = new URL(trimmed);
        if (!['http:', 'https:', 'mongodb:', 'mongodb+srv:'].includes(url.protocol)) {
          return { problem: `must be an http(s) or mongodb URL (got "${trimmed}")` };
        }
        return { value: trimmed };
      } catch {
        return { problem: `must be an absolute URL (got "${trimmed}")` };
      }
    case 'integer':
    case 'number': {
      const n = Number(trimmed);
      if (trimmed === '' || !Number.isFinite(n) || (setting.type === 'integer' && !Number.isInteger(n))) {
        return { problem: `must be ${setting.type === 'integer' ? 'an integer' : 'a number'} (got "${trimmed}")` };
      }
      if (setting.min !== undefined && n < setting.min) return { problem: `must be ≥ ${setting.min} (got ${n})` };
      if (setting.max !== undefined && n > setting.max) return { problem: `must be ≤ ${setting.max} (got ${n})` };
      return { value: n };
    }
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(trimmed)) return { value: true };
      if (/^(false|0|no|off)$/i.test(trimmed)) return { value: false };
      return { problem: `must be true or false (got "${trimmed}")` };
    case 'list': {
      const items = trimmed
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = setting.choices ? items.filter((i) => !setting.choices!.includes(i)) : [];
      if (bad.length) return { problem: `unknown value(s) ${bad.join(', ')}; allowed: ${setting.choices!.join(', ')}` };
      return { value: items };
    }
  }
}

/** Reads every declared setting from `env`; throws one ConfigError naming every problem. */
export function loadConfig<Spec extends SettingsSpec>(
  spec: Spec,
  env: Record<string, string | undefined>,
): ConfigOf<Spec> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(spec)) {
    const raw = env[setting.env];
    if (raw !== undefined && raw !== '') {
      const { value, problem } = parse(setting, raw);
      if (problem) {
        problems.push(`${setting.env} ${problem}`);
        continue;
      }
      const extra = setting.check?.(value as never);
      if (extra) {
        problems.push(`${setting.env} ${extra}`);
        continue;
      }
      out[key] = value;
    } else if (setting.default !== undefined) {
      out[key] = typeof setting.default === 'function' ? setting.default(out) : setting.default;
    } else if (setting.required) {
      problems.push(`${setting.env} is required: ${setting.doc}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(out) as ConfigOf<Spec>;
}

/** A Markdown table of the settings, for the README (generated from the declarations, never by hand). */
export function settingsTable(spec: SettingsSpec): string {
  const rows = Object.values(spec).map((s) => {
    const def =
      s.defaultDoc ??
      (s.default === undefined || typeof s.default === 'function'
        ? s.required
          ? 'required'
          : '—'
        : String(s.default));
    return `| \`${s.env}\` | ${def} | ${s.doc} |`;
  });
  return ['| Setting | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
