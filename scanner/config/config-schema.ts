/**
 * The JSON Schema of a scanner config file (schemas/scanner-config/scanner-config.schema.json, written by
 * `npm run schema:scanner-config`), generated from the same option tables the scan commands parse with: the
 * scan-wide settings (common-args.ts), each kind's own flags and the built-in checks' options, each as its config key
 * (config-keys.ts). Editors use it to complete and check the file; `scanner config validate` is the authority (it
 * also knows custom checks' options and checks values the way the flags do).
 */
import type { SettingDeclaration } from '../../lib/settings/declaration.js';
import { collectOptions, optionSettings } from '../check-options.js';
import { scanSettings } from '../common-args.js';
import { loadChecks } from '../loader.js';
import { scanCommand } from '../commands/scan-kinds.js';
import { configKeyOf, type ArgOptions } from './config-keys.js';
import { KINDS, type ConfigKind } from './config-values.js';
import { SUPPRESSIONS_SCHEMA_ID } from './suppressions-file.js';

export const CONFIG_SCHEMA_ID = 'https://gatehouse.dev/schemas/scanner-config/scanner-config.schema.json';

type Schema = Record<string, unknown>;

/** A value of `${NAME}` is text, so numbers and booleans given through the environment arrive as text too. */
const text = { type: 'string' };
const textOrList = { anyOf: [text, { type: 'array', items: text }] };

/** The schema of one setting's value, as config-values.ts accepts it. */
function settingSchema(setting: SettingDeclaration): Schema {
  const doc = { description: setting.doc };
  switch (setting.type) {
    case 'boolean':
      return { ...doc, type: 'boolean' };
    case 'integer':
    case 'number':
    case 'port': {
      const bounds = {
        ...(setting.min === undefined ? {} : { minimum: setting.min }),
        ...(setting.max === undefined ? {} : { maximum: setting.max }),
      };
      return { ...doc, anyOf: [{ type: setting.type === 'number' ? 'number' : 'integer', ...bounds }, text] };
    }
    case 'enum':
      return { ...doc, enum: [...setting.choices] };
    case 'list':
      return setting.choices
        ? { ...doc, anyOf: [{ enum: [...setting.choices] }, { type: 'array', items: { enum: [...setting.choices] } }] }
        : { ...doc, ...textOrList };
    case 'url':
      return { ...doc, type: 'string', format: 'uri' };
    default:
      return { ...doc, anyOf: [text, { type: 'number' }] };
  }
}

/** The one-line docs of a command's help (`  -X, --request <method>   HTTP method …`), by flag name. */
function helpDocs(help: string, docs: Map<string, string>): Map<string, string> {
  for (const line of help.split('\n')) {
    const match = /--([a-z0-9-]+)(?: <[^>]+>)?\s{2,}(.+)$/.exec(line);
    if (match) docs.set(match[1], match[2]);
  }
  return docs;
}

/** A flag of a kind's own table (util.parseArgs options: a type, maybe a list), described by the curl help. */
function flagSchema(option: ArgOptions[string], doc: string | undefined): Schema {
  const description = doc ? { description: doc } : {};
  if (option.type === 'boolean') return { ...description, type: 'boolean' };
  return option.multiple ? { ...description, ...textOrList } : { ...description, anyOf: [text, { type: 'number' }] };
}

/** One identity of `identities:` (config-values.ts turns it into an --identity value; model/identity-spec.ts reads it). */
const PROVIDER_FIELDS = { type: 'object', additionalProperties: { anyOf: [text, { type: 'number' }] } };
const IDENTITY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: text,
    role: text,
    header: { ...text, description: "'Name: value'" },
    login: { ...PROVIDER_FIELDS, description: 'username, password, operation?, token? (the description’s sign-in)' },
    clientCredentials: { ...PROVIDER_FIELDS, description: 'token_url or issuer, client_id, client_secret, scope?' },
    passwordGrant: { ...PROVIDER_FIELDS, description: 'token_url or issuer, client_id, username, password, scope?' },
  },
  oneOf: [
    { required: ['header'] },
    { required: ['login'] },
    { required: ['clientCredentials'] },
    { required: ['passwordGrant'] },
  ],
};

const SPECIAL: Record<string, Schema> = {
  target: {
    description:
      'What to scan, as the command line would name it: a URL (scan curl, scan graphql) or an OpenAPI description file or URL (scan openapi).',
    type: 'string',
    minLength: 1,
  },
  kind: {
    description:
      'The scan: curl, openapi or graphql. Default: openapi for a target ending in .json, .yaml or .yml, graphql for one ending in /graphql or /gql, else curl.',
    enum: [...KINDS],
  },
  identities: {
    description:
      'The scan identities besides the supplied credential (as --identity): a list of NAME[:role]=CREDENTIAL texts or of {name, role?, header | login | clientCredentials | passwordGrant}, or a mapping of names to a credential text or to {role?, header | login | …}. Secrets as env:NAME, file:PATH or ${NAME}.',
    anyOf: [
      { type: 'array', items: { anyOf: [text, { ...IDENTITY, required: ['name'] }] } },
      { type: 'object', additionalProperties: { anyOf: [text, IDENTITY] } },
    ],
  },
  suppressions: {
    description:
      'Accepted findings (a list of {fingerprint, reason, expires?}), or the --suppressions file holding them.',
    anyOf: [{ $ref: SUPPRESSIONS_SCHEMA_ID }, text],
  },
};

/** The schema object (not yet formatted): every key of every kind, each described once. */
export async function buildConfigSchema(): Promise<Schema> {
  const properties: Record<string, Schema> = { ...SPECIAL };
  const kindsOf = new Map<string, ConfigKind[]>();
  const docs = new Map<string, string>();
  // Built-in checks only: a custom check's options are known to `scanner config validate`, not to a static schema.
  const declared = collectOptions(
    (await loadChecks({ dirs: [] })).map((c) => ({ definition: c.definition, shown: c.file })),
  );
  const settings: Record<string, SettingDeclaration> = { ...scanSettings.settings, ...optionSettings(declared) };
  for (const setting of Object.values(settings)) {
    const key = setting.flag && configKeyOf(setting.flag.slice(2));
    if (key && !(key in properties)) properties[key] = settingSchema(setting);
  }
  for (const kind of KINDS) {
    const { options, help } = await scanCommand(kind);
    helpDocs(help, docs);
    for (const [flag, option] of Object.entries(options)) {
      const key = configKeyOf(flag);
      if (!key) continue;
      kindsOf.set(key, [...(kindsOf.get(key) ?? []), kind]);
      properties[key] ??= flagSchema(option, docs.get(flag) ?? `as --${flag}`);
    }
  }
  // A flag only some kinds have says so: the scan of another kind rejects it as an unknown key.
  for (const [key, kinds] of kindsOf) {
    if (kinds.length === KINDS.length) continue;
    const schema = properties[key];
    schema.description = `${schema.description as string} (scan ${kinds.join(', scan ')} only)`;
  }
  const sorted = Object.fromEntries(Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: CONFIG_SCHEMA_ID,
    title: 'Gatehouse scanner config file (.gatehouse-scanner.yml, --config FILE)',
    description:
      'Every long flag of the scan as its camelCase key, plus target, kind, headers, identities and suppressions; ${NAME} in any text is the environment variable NAME; flags typed on the command line win. Generated from the scanner flag declarations by npm run schema:scanner-config.',
    type: 'object',
    additionalProperties: false,
    properties: sorted,
  };
}
