/**
 * The settings vocabulary of every part: a setting is declared once — its flag, environment variable, type, default,
 * one-line doc, validation, whether it is a secret — and the parts' cross-setting rules are named checks beside them.
 * The loader (load-settings.ts), `--help` (render-help.ts) and the README tables (render-table.ts) read only this.
 */

/** What every setting declares, whatever its type. */
interface SettingBase<T> {
  /** One line for `--help` and the README. */
  doc: string;
  /** The command-line flag (`--port`); absent: not a flag. */
  flag?: `--${string}`;
  /** A one-letter alias of the flag (`h` for `-h`). */
  short?: string;
  /** The environment variable (`IDP_PORT`); absent: not read from the environment. */
  env?: string;
  /** Shown after the flag in `--help` (`<path>`); each type has its own by default. */
  valueName?: string;
  /** The value when none is given, or a function of the settings declared before it. */
  default?: T | ((settings: Readonly<Record<string, unknown>>) => T | undefined);
  /** The default as the docs show it, when it is computed or needs words (`http://HOST:PORT`). */
  defaultDoc?: string;
  /** A value must be given (there is no default). */
  required?: boolean;
  /** A credential: `<ENV>_FILE` may name a file holding it (a mounted secret), and docs never show a value. */
  secret?: boolean;
  /** Further validation of a well-typed value: a problem (`must …`) or undefined. */
  check?: (value: T) => string | undefined;
}

/** Text as given (`string`), or an absolute URL of one of `protocols` (default http and https). */
interface TextSetting extends SettingBase<string> {
  type: 'string' | 'url';
  protocols?: readonly string[];
}

/** A number, bounded by `min`/`max` (inclusive); `port` is an integer from 0 to 65535. */
interface NumberSetting extends SettingBase<number> {
  type: 'integer' | 'number' | 'port';
  min?: number;
  max?: number;
}

/** On or off; off unless declared otherwise. As text: true/false, 1/0, yes/no, on/off. */
interface BooleanSetting extends SettingBase<boolean> {
  type: 'boolean';
}

/** One of `choices` (exactly as written: `JWT` is not `jwt`). */
interface EnumSetting extends SettingBase<string> {
  type: 'enum';
  choices: readonly string[];
}

/**
 * Several values: a repeatable flag, comma-separated in the environment (and in a flag's value unless `split` is
 * false); each one of `choices` when given. Empty unless declared otherwise.
 */
interface ListSetting extends SettingBase<readonly string[]> {
  type: 'list';
  choices?: readonly string[];
  split?: boolean;
}

/**
 * Any other value: `parse` reads the text of a flag or variable, `accept` checks a value given in code (a value of
 * another shape than text, such as a users list); either throws an Error whose message is the problem (`must …`).
 * Without `accept`, code gives the text. `format` writes a value back as text (docs, variables).
 */
interface CustomSetting<T = unknown> extends SettingBase<T> {
  type: 'custom';
  parse?: (text: string) => T;
  accept?: (value: unknown) => T;
  format?(value: T): string;
}

export type SettingDeclaration =
  TextSetting | NumberSetting | BooleanSetting | EnumSetting | ListSetting | CustomSetting;

export type SettingDeclarations = Readonly<Record<string, SettingDeclaration>>;

/** The value a declaration stands for. */
type ValueOf<S> = S extends { type: 'custom'; accept: (value: unknown) => infer T }
  ? T
  : S extends { type: 'custom'; parse: (text: string) => infer T }
    ? T
    : S extends { type: 'enum'; choices: readonly (infer C)[] }
      ? C
      : S extends { type: 'list'; choices: readonly (infer C)[] }
        ? readonly C[]
        : S extends { type: 'list' }
          ? readonly string[]
          : S extends { type: 'integer' | 'number' | 'port' }
            ? number
            : S extends { type: 'boolean' }
              ? boolean
              : string;

/** Settings that always have a value: a default, required, or a boolean or a list (off and empty by default). */
type AlwaysSet<S> = S extends { default: unknown } | { required: true } | { type: 'boolean' | 'list' } ? true : false;

/** The loaded settings: every declared key, typed from its declaration; `undefined` only where unset is allowed. */
export type SettingsOf<D> = {
  readonly [K in keyof D]: AlwaysSet<D[K]> extends true ? ValueOf<D[K]> : ValueOf<D[K]> | undefined;
};

/** What code may give (`createIdp(options)`): any declared key, each of its declared type. */
export type SettingsInput<D> = { [K in keyof D]?: ValueOf<D[K]> };

/**
 * A rule between settings, named where it is declared: returns a problem or undefined. `name` writes a setting's
 * name the way it was given (`--public-client`, `IDP_PUBLIC_CLIENT` or `publicClient`).
 */
export type SettingsRule<D> = (settings: SettingsOf<D>, name: (key: keyof D & string) => string) => string | undefined;

/** A part's settings: the declarations and the rules between them. */
export interface SettingsSchema<D extends SettingDeclarations = SettingDeclarations> {
  readonly settings: D;
  readonly rules: Readonly<Record<string, SettingsRule<D>>>;
}

/** Declares a part's settings and its cross-setting rules (types flow from the declarations to the loaded values). */
export function defineSettings<const D extends SettingDeclarations>(
  settings: D,
  rules: Readonly<Record<string, SettingsRule<D>>> = {},
): SettingsSchema<D> {
  return Object.freeze({ settings, rules });
}
