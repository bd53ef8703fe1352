/**
 * Recovers a schema from validation errors when introspection is refused (what clairvoyance does): documents of
 * guessed field names (suggestion-words.ts) are answered with "Cannot query field … Did you mean …" for the wrong
 * guesses and nothing for the right ones; "must have a selection of subfields", "has no subfields" and "argument … is
 * required" give types; "Unknown argument … Did you mean" and "cannot represent" give arguments. Every document
 * carries a field that cannot exist, so validation fails and nothing executes (mutations included).
 * Bounded: at most `budget` requests; what is found is a partial schema (SDL). Names of destructive fields are not
 * guessed: the send gate (scanner/safety.ts) refuses any document that names one.
 */
import { graphqlFieldClass } from '../operation-class.js';
import { ARGUMENT_WORDS, FIELD_WORDS } from './suggestion-words.js';

const CANARY = 'gatehouseNoSuchField';
/** The placeholder field of a recovered type whose fields were not found. */
export const UNKNOWN_FIELD = 'gatehouseUnknownField';
const CHUNK = 40;
const MAX_ROOT_FIELDS = 40;
const MAX_TYPES = 12;
const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

interface RawError {
  message: string;
  column?: number;
}

/** Sends one document (JSON POST) and returns its errors, or undefined when no GraphQL answer came back. */
export type SendDocument = (document: string) => Promise<RawError[] | undefined>;

export function rawErrors(body: string): RawError[] | undefined {
  try {
    const parsed = JSON.parse(body) as { errors?: { message?: unknown; locations?: { column?: unknown }[] }[] };
    if (!Array.isArray(parsed.errors)) return typeof parsed === 'object' && parsed !== null ? [] : undefined;
    return parsed.errors.map((e) => ({
      message: typeof e.message === 'string' ? e.message : '',
      ...(typeof e.locations?.[0]?.column === 'number' ? { column: e.locations[0].column } : {}),
    }));
  } catch {
    return undefined;
  }
}

const quoted = (text: string): string[] => [...text.matchAll(/"([_A-Za-z][_0-9A-Za-z]*)"/g)].map((m) => m[1]);

/** The names a "Did you mean …?" offers. */
function suggestedNames(message: string): string[] {
  const at = message.indexOf('Did you mean');
  return at < 0 ? [] : quoted(message.slice(at)).filter((n) => !n.includes(' '));
}

interface FieldInfo {
  type?: string;
  /** The type needs a selection of subfields (an object, interface or union), as the error said. */
  object?: boolean;
  args: Map<string, string>;
}

interface Recovered {
  roots: Map<'query' | 'mutation', { typeName: string; fields: Map<string, FieldInfo> }>;
  types: Map<string, Map<string, string>>;
  scalars: Set<string>;
}

const named = (type: string): string => type.replace(/[[\]!]/g, '');

export async function recoverBySuggestions(send: SendDocument, budget = 60): Promise<string | undefined> {
  let spent = 0;
  const ask = async (document: string): Promise<RawError[] | undefined> => {
    if (spent >= budget) return undefined;
    spent += 1;
    return send(document);
  };
  const found: Recovered = { roots: new Map(), types: new Map(), scalars: new Set() };

  /** Names of fields on a selection (`wrap` puts the guesses inside), and the type name errors name. */
  const guessFields = async (wrap: (inner: string) => string, words: string[]) => {
    const fields = new Set<string>();
    let typeName: string | undefined;
    for (let i = 0; i < words.length; i += CHUNK) {
      const chunk = words.slice(i, i + CHUNK);
      // The canary first: servers stop reporting after a number of errors (graphql-js: 100).
      const errors = await ask(wrap(`${CANARY} ${chunk.join(' ')}`));
      if (!errors) break;
      const unknown = new Set<string>();
      let canarySeen = false;
      const cut = errors.some((e) => /too many (validation )?errors/i.test(e.message));
      for (const { message } of errors) {
        const m = /^Cannot query field "(\w+)" on type "(\w+)"/.exec(message);
        if (!m) continue;
        unknown.add(m[1]);
        typeName ??= m[2];
        if (m[1] === CANARY) canarySeen = true;
        for (const name of suggestedNames(message)) fields.add(name);
      }
      // Without the canary's error, the server hides validation details: the guesses say nothing.
      if (!canarySeen) return { fields: new Set<string>(), typeName };
      // Past a cut-off error list, a guess without an error was simply not reported: only those before count.
      const last = cut ? Math.max(...chunk.map((w, i) => (unknown.has(w) ? i : -1))) : chunk.length;
      chunk.forEach((word, i) => {
        if (i < last && !unknown.has(word)) fields.add(word);
      });
    }
    return { fields, typeName };
  };

  for (const kind of ['query', 'mutation'] as const) {
    // The send gate refuses any document naming a destructive root field, even one that cannot run: not guessed.
    const words = FIELD_WORDS.filter((word) => graphqlFieldClass(kind, word) !== 'destructive');
    const { fields, typeName } = await guessFields((inner) => `${kind} { ${inner} }`, words);
    if (fields.size === 0 || !typeName) continue;
    const infos = new Map<string, FieldInfo>();
    for (const name of [...fields].slice(0, MAX_ROOT_FIELDS)) infos.set(name, { args: new Map() });
    found.roots.set(kind, { typeName, fields: infos });
    for (const [name, info] of infos) {
      const errors = await ask(`${kind} { a: ${name} { __typename } b: ${name} ${CANARY} }`);
      for (const { message } of errors ?? []) {
        const scalar = new RegExp(`^Field "${name}" must not have a selection since type "([^"]+)"`).exec(message);
        const object = new RegExp(`^Field "${name}" of type "([^"]+)" must have a selection`).exec(message);
        const required = new RegExp(`^Field "${name}" argument "(\\w+)" of type "([^"]+)" is required`).exec(message);
        if (scalar) info.type = scalar[1];
        if (object) Object.assign(info, { type: object[1], object: true });
        if (required) info.args.set(required[1], required[2]);
      }
      await guessArguments(kind, name, info);
    }
  }
  if (found.roots.size === 0) return undefined;

  async function guessArguments(kind: string, field: string, info: FieldInfo): Promise<void> {
    const words = ARGUMENT_WORDS.filter((w) => !info.args.has(w));
    let document = `${kind} { ${field}(`;
    const columns = new Map<number, string>();
    words.forEach((word, i) => {
      document += `${i > 0 ? ', ' : ''}${word}: `;
      columns.set(document.length + 1, word);
      document += '{}';
    });
    document += `) ${CANARY} }`;
    const errors = await ask(document);
    if (!errors) return;
    const unknown = new Set<string>();
    for (const { message, column } of errors) {
      const m = /^Unknown argument "(\w+)" on field/.exec(message);
      if (m) {
        unknown.add(m[1]);
        for (const name of suggestedNames(message)) if (!info.args.has(name)) info.args.set(name, 'String');
        continue;
      }
      const word = column !== undefined ? columns.get(column) : undefined;
      if (!word) continue;
      const type =
        /^(String|Int|Float|Boolean|ID) cannot represent/.exec(message)?.[1] ??
        /^Expected value of type "([^"]+)"/.exec(message)?.[1];
      if (type && !type.startsWith('Enum')) info.args.set(word, type.replace(/!$/, ''));
    }
    // A guess without an "Unknown argument" error exists; its type is the one an error gave, else String.
    for (const word of words) if (!unknown.has(word) && !info.args.has(word)) info.args.set(word, 'String');
  }

  // Object types the root fields return: their scalar fields, one guess document each.
  const objectTypes = new Map<string, { kind: string; field: string }>();
  for (const [kind, root] of found.roots)
    for (const [field, info] of root.fields)
      if (info.object && info.type && !objectTypes.has(named(info.type)))
        objectTypes.set(named(info.type), { kind, field });
  for (const [typeName, via] of [...objectTypes].slice(0, MAX_TYPES)) {
    const { fields } = await guessFields((inner) => `${via.kind} { ${via.field} { ${inner} } }`, FIELD_WORDS);
    found.types.set(typeName, new Map([...fields].map((f) => [f, 'String'])));
  }
  return toSdl(found);
}

function toSdl(found: Recovered): string {
  const lines: string[] = [];
  const scalars = new Set<string>();
  const typeRef = (type: string): string => {
    const name = named(type);
    if (!BUILT_IN.has(name) && !found.types.has(name)) scalars.add(name);
    return type;
  };
  for (const [, root] of found.roots) {
    lines.push(`type ${root.typeName} {`);
    for (const [field, info] of root.fields) {
      const args = [...info.args].map(([n, t]) => `${n}: ${typeRef(t)}`).join(', ');
      lines.push(`  ${field}${args ? `(${args})` : ''}: ${typeRef(info.type ?? 'String')}`);
    }
    lines.push('}');
  }
  for (const [name, fields] of found.types) {
    lines.push(`type ${name} {`);
    for (const [field, type] of fields) lines.push(`  ${field}: ${type}`);
    // SDL needs a field; this one is never selected (field-operation.ts selects __typename instead).
    if (fields.size === 0) lines.push(`  ${UNKNOWN_FIELD}: String`);
    lines.push('}');
  }
  for (const name of scalars) lines.push(`scalar ${name}`);
  const query = found.roots.get('query')?.typeName;
  const mutation = found.roots.get('mutation')?.typeName;
  lines.push(`schema { query: ${query ?? 'Query'}${mutation ? ` mutation: ${mutation}` : ''} }`);
  if (!query) lines.push(`type Query { ${UNKNOWN_FIELD}: String }`);
  return lines.join('\n');
}
