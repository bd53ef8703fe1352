/**
 * Classifies an operation before any request is sent (docs/architecture.md §2.6): `read` (GET/HEAD/OPTIONS), `write`
 * (POST/PUT/PATCH) or `destructive` — every DELETE, and any operation whose path, operationId or summary names a
 * state-wiping verb (`GET /reset-db` wipes a database however it is spelled). A pure function of what the
 * description or the curl command says, so checks and the engine agree on it without sending anything.
 */
import type { Operation } from './api.js';

export type OperationClass = 'read' | 'write' | 'destructive';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Verbs that wipe or stop state on their own, whatever they act on. */
const WIPING = [
  'reset',
  'drop',
  'purge',
  'wipe',
  'truncate',
  'delete',
  'remove',
  'destroy',
  'erase',
  'clear',
  'flush',
  'nuke',
  'seed',
  'reseed',
  'shutdown',
  'restart',
  'reboot',
  'kill',
  'terminate',
  'rollback',
  // They end the scan's own session or credential: every later request of the scan would prove nothing.
  'logout',
  'signout',
  'revoke',
];
/** Verbs that are harmless alone (create a user) and wipe when they set up a whole store (init the database). */
const SETUP = [
  'init',
  'initialize',
  'initialise',
  'create',
  'seed',
  'populate',
  'setup',
  'bootstrap',
  'recreate',
  'migrate',
];
const STORES = ['db', 'database', 'databases', 'schema', 'schemas', 'tables', 'data', 'collections'];

/** Lower-case words of a path, operationId or summary: splits camelCase, kebab, snake, dots and slashes. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Whether a name says it wipes state: a wiping word (`reset-db`, `factory_reset`), a verb glued to a store
 * (`resetdb`, `initdb`), or a set-up verb whose object is a store (`create the database`, `initDatabase`). */
function namesWipe(text: string): boolean {
  const words = wordsOf(text);
  if (words.some((word) => WIPING.includes(word))) return true;
  if (words.some((word) => WIPING.some((verb) => word.startsWith(verb) && STORES.includes(word.slice(verb.length)))))
    return true;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i];
    const setupVerb = SETUP.find(
      (verb) => word === verb || (word.startsWith(verb) && STORES.includes(word.slice(verb.length))),
    );
    if (!setupVerb) continue;
    if (word !== setupVerb) return true;
    // The store must be what is set up (`create the database`), not a qualifier (`create a database backup`).
    const rest = words.slice(i + 1);
    if (rest.length > 0 && rest.length <= 3 && STORES.includes(rest[rest.length - 1])) return true;
  }
  return false;
}

export interface ClassifiedOperation {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
}

/** Mutations that only read or sign in: nothing stored changes when they are repeated. */
const READING_MUTATIONS =
  /^(get|list|find|search|query|lookup|check|validate|verify|preview|count|login|logon|signin|authenticate)$/;
/** Mutations that change the whole system rather than one object (`updateSystemConfig`, `setMaintenanceMode`). */
const SYSTEM_WIDE = ['system', 'global', 'maintenance', 'config', 'configuration', 'server', 'site'];

/**
 * A GraphQL root field's class (docs/architecture.md §2.9): a query reads unless its name wipes (`resetDatabase`);
 * a mutation is destructive when its name wipes or names the whole system, a read when it starts with a reading
 * or sign-in verb (`getReport`, `login`), else a write.
 */
export function graphqlFieldClass(kind: 'query' | 'mutation' | 'subscription', field: string): OperationClass {
  if (namesWipe(field)) return 'destructive';
  if (kind !== 'mutation') return 'read';
  const words = wordsOf(field);
  if (words.some((word) => SYSTEM_WIDE.includes(word))) return 'destructive';
  return READING_MUTATIONS.test(words[0] ?? '') ? 'read' : 'write';
}

/** `read`, `write` or `destructive`, decided from the method and the names alone (GraphQL: the field's). */
export function operationClass(operation: ClassifiedOperation | Operation): OperationClass {
  if ('graphql' in operation && operation.graphql?.field)
    return graphqlFieldClass(operation.graphql.kind, operation.graphql.field);
  if ('graphql' in operation && operation.graphql) return 'read';
  const method = operation.method.toUpperCase();
  if (method === 'DELETE') return 'destructive';
  const summary = 'summary' in operation ? operation.summary : undefined;
  const names = [operation.path, operation.operationId, summary].filter((n): n is string => typeof n === 'string');
  if (names.some(namesWipe)) return 'destructive';
  return READ_METHODS.has(method) ? 'read' : 'write';
}

const UPDATE_VERBS = /^(update|set|edit|change|modify|rename|patch|replace|assign|upsert|save)$/;

/**
 * Whether a write changes an object that already exists (PUT/PATCH; a GraphQL mutation named update…, set…, edit…):
 * values a probe sends there stay in someone's object, so input-rewriting checks leave such writes alone.
 */
export function changesExistingObject(operation: ClassifiedOperation | Operation): boolean {
  if ('graphql' in operation && operation.graphql?.field)
    return operation.graphql.kind === 'mutation' && UPDATE_VERBS.test(wordsOf(operation.graphql.field)[0] ?? '');
  return ['PUT', 'PATCH'].includes(operation.method.toUpperCase());
}
