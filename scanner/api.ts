/**
 * The public surface for check authors: `defineCheck` and the types a check sees.
 * Built-in checks in `checks/` and custom checks in a `--checks-dir` import only this module.
 * The engine (loader, graph, runner) implements `CheckContext`; this file declares the contract, plus the one JWT
 * parser that decided `Credential.format`, so a custom check reads a credential the way the scanner classified it.
 */
export { encodeSegment, parseUnverified, type ParseResult, type UnverifiedJwt } from './compact-jwt.js';
import type { ApiModel } from './model/api-model.js';
export type { ApiModel, ModelIdentity, ModelRequest, PlacedOperation, ReadBack } from './model/api-model.js';
export type { JsonObject } from './model/answer-objects.js';
export type { CreatedObject } from './model/created-objects.js';
export type { Escalation } from './model/escalations.js';
export type { ShapeField } from './model/operation-shape.js';
export type { FilledValue } from './model/fill-references.js';
export type { Link, LinkEnd } from './model/links.js';
export type { OwnedValue, OwnershipSource } from './model/ownership.js';
export type { ObjectReference } from './model/references.js';
import type { OracleKind } from './model/oracles.js';
export type { ObjectTarget, Oracle, OracleKind } from './model/oracles.js';
export type { OperationRole, Resource, ResourceKey, ResourceOperation } from './model/resources.js';

/** CVSS 4.0 as reported: the vector string and its base score (0–10). */
export interface Cvss {
  version: 4.0;
  vector: string;
  score: number;
}

export interface IssueMeta {
  /** Stable issue id, e.g. `broken_authentication.alg_none` (VulnAPI vocabulary). */
  id: string;
  name: string;
  /** Documentation URL, when there is one. */
  url?: string;
  cvss: Cvss;
  classifications?: { owasp?: string; cwe?: string; capec?: string };
  /**
   * One finding per origin, listing the operations (response-header issues: a missing header is the server's, not each
   * operation's).
   */
  perOrigin?: boolean;
  /**
   * An authentication issue about the operation itself rather than the credential it is called with (a sign-in
   * that takes a common password): it keeps its score where the operation is public, which a sign-in always is
   * (scanner/public-operations.ts caps the other authentication issues there at Info).
   */
  holdsOnPublicOperations?: boolean;
}

/** Where a credential travels in a request: `body` is a property of a JSON body (a GraphQL token argument). */
export type CredentialLocation = 'header' | 'query' | 'cookie' | 'body';

/** The credential the operation is scanned with (the first security scheme that has a value). */
export interface Credential {
  /** The security scheme's name (OpenAPI components key, or a name derived from curl flags). */
  schemeName: string;
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect';
  /** For `type: http`: `bearer` or `basic`. */
  scheme?: 'bearer' | 'basic';
  in: CredentialLocation;
  /** Header, query parameter or cookie name (e.g. `Authorization`); the property's name for `in: 'body'`. */
  name: string;
  /**
   * `in: 'body'`: where the value sits in the JSON body (a GraphQL argument `token` is `['variables', 'token']`). The
   * operation's body already carries it; an attack value replaces it there, and `credential: null` removes it.
   */
  pointer?: string[];
  /**
   * `in: 'body'`: the endpoint's own credential (a header, query parameter or cookie), sent with its value beside the
   * body credential so the request stays the identity's while only the body value is attacked; `credential: null`
   * leaves both out. Redacted like the credential.
   */
  with?: Credential;
  /** `jwt` when the value looks like and parses as a JWT. */
  format: 'jwt' | 'opaque';
  /** The raw value as the user gave it, without the `Bearer ` prefix. */
  value: string;
}

/** One operation to scan: a method on a URL with its inputs. */
export interface Operation {
  /** Stable id, e.g. `GET /api/v1/organizations/{organizationId}`. */
  id: string;
  method: string;
  /** Absolute URL with path parameters filled. */
  url: string;
  /** The path template (OpenAPI) or the URL's path (curl). */
  path: string;
  /** Request headers other than the credential; every value kept. */
  headers: Record<string, string[]>;
  cookies: Record<string, string>;
  body?: string;
  /** Set when the operation is declared (OpenAPI) or known (curl with a credential) to require authentication. */
  credential?: Credential;
  /** Security scheme names declared for the operation; empty for a public operation. */
  securitySchemes: string[];
  /** OpenAPI tags / operationId / summary when scanning a description. */
  operationId?: string;
  tags?: string[];
  summary?: string;
  /**
   * OpenAPI scans: the JSON schema each declared answer promises (`200`, `2XX`, `default` → schema, `$ref`s resolved,
   * recursion cut at a few levels), so passive checks can compare what came back with what was promised.
   */
  responseSchemas?: Record<string, unknown>;
  /**
   * OpenAPI scans: what the description declares about the inputs (path, query, header and cookie parameters, and the
   * request body's properties down to a few levels, each at its pointer, with type, format, pattern, readOnly and
   * example); GraphQL scans: the arguments. Checks read the inputs through `operationInputs(operation)`
   * (scanner/model/inputs.ts), which joins these declarations with what the operation sends (curl scans have none).
   */
  inputs?: InputField[];
  responseProperties?: string[];
  /**
   * OpenAPI scans, write operations: a GET path template that reads back what this operation created or changed (the
   * same path, or the path plus one parameter for a create on a collection), so a check can prove a write stuck.
   */
  readBackPath?: string;
  /**
   * The credential of that GET when it differs from this operation's (a public registration read back through the
   * user list the scan's identity may read). Redacted like the operation's own.
   */
  readBackCredential?: Credential;
  /**
   * OpenAPI scans, login operations: the description's registration operation (a POST named register/sign-up), with
   * its URL and generated body, so authentication checks can create a user they know (authentication.user_enumeration).
   */
  registration?: { url: string; body: string };
  /**
   * OpenAPI scans: the path parameters in template order, with the value in `url` and whether the description gave it
   * (`example`, `examples`, `default`, `const` or `enum`) or the scanner generated it; `fixed` when the description
   * allows only listed values (`enum`, `const`), which no object id may replace.
   */
  pathParameters?: { name: string; value: string; given: boolean; fixed?: boolean }[];
  /**
   * OpenAPI scans with `--as-other`: path parameters whose generated or example value was replaced, before any check ran, by an
   * object id from the first identity's responses — `name → { value, from }`, `from` being the id of the operation
   * that answered it (a GET on the parent path, e.g. `GET /orders` for `{orderId}` in `/orders/{orderId}`, else a POST
   * there). `url` already carries these values, so a `bola.*` check sends the operation as the other identity
   * (`ctx.options.asOther`) and compares; an operation with generated path parameters and no `objectIds` names no
   * real object, and such a check should skip it (a 404 for an invented id proves nothing).
   * See `scanner/openapi/object-ids.ts` for how ids are read from responses.
   */
  objectIds?: Record<string, { value: string; from: string }>;
  /**
   * GraphQL scans: the root field this operation calls (or the endpoint itself, `field` undefined), with the document,
   * operation name and variables its JSON body carries (scanner/graphql/field-operation.ts). Arguments travel as
   * variables, so body-input checks reach them at `variables.<name>`; `operation.inputs` describes them.
   */
  graphql?: GraphqlOperation;
}

/** What a GraphQL operation sends and where it comes from (scanner/graphql/). */
export interface GraphqlOperation {
  /** The endpoint URL every operation of the scan posts to. */
  endpoint: string;
  /** `query` or `mutation` (the endpoint operation is a `query` of `__typename`). */
  kind: 'query' | 'mutation';
  /** The root field called; undefined for the endpoint operation (`query{__typename}`). */
  field?: string;
  document: string;
  operationName?: string;
  variables: Record<string, unknown>;
  /** The field's type as written in the schema (`[Order!]!`), and its arguments with theirs. */
  returnType?: string;
  arguments?: { name: string; type: string }[];
  /** How the schema was obtained (the report's `graphql.schemaSource`). */
  schemaSource: string;
  /** The schema as SDL (graphql-js `printSchema`), so GraphQL checks can read types without re-introspecting. */
  sdl?: string;
}

/** One declared input of an operation (OpenAPI; GraphQL arguments as body inputs under `variables`). */
export interface InputField {
  in: 'path' | 'query' | 'header' | 'cookie' | 'body';
  name: string;
  /**
   * Body inputs below the top level: the property path in the body (`['address', 'city']`; a GraphQL argument `url` is
   * `['variables', 'url']`, a field of an input object `['variables', 'input', 'url']`); `name` is the last key (an
   * array item's: the array's). Absent: `[name]`. An operation that declares GraphQL arguments offers only those body
   * inputs (not `query`/`operationName`: scanner/model/inputs.ts).
   */
  pointer?: string[];
  /** GraphQL arguments: the type as the schema writes it (`String!`, `[ID!]`, `OrderInput`). */
  graphqlType?: string;
  /** The description's example (or default, or first enum value) when it gives one. */
  example?: unknown;
  type?: string;
  format?: string;
  pattern?: string;
  maxLength?: number;
  readOnly?: boolean;
  required?: boolean;
}

/**
 * What a check asks the engine to send. Everything not given is taken from the operation.
 * `credential`: `undefined` keeps the operation's credential, `null` sends none, a string replaces its value
 * (an "attack value": the engine puts it where the credential goes, with `Bearer ` for bearer schemes; for a body
 * credential, at its pointer in the JSON body sent — the check's own body, when it gives one).
 */
export interface ProbeRequest {
  method?: string;
  /** An absolute URL, or a path resolved against the operation's URL origin. */
  url?: string;
  /** Extra or replacing headers for this request only; `null` removes a header. */
  headers?: Record<string, string | null>;
  /** Extra or replacing cookies for this request only (values as they go on the wire); `null` removes one. */
  cookies?: Record<string, string | null>;
  body?: string | null;
  credential?: string | null;
  followRedirects?: boolean;
  /** A hard cap for this request only, below the scan's timeout (timing checks: resource.redos). */
  timeoutMs?: number;
  /**
   * The scan identity to send it as (`ctx.model.identities`: `first`, `other`, `admin`…): its credential replaces the
   * operation's, renewed when it expires. `credential` and `headers` given here still win. Default: `first`.
   */
  as?: string;
  /**
   * This request changes a scan identity's own password or e-mail address and the check sets it back afterwards:
   * without it the send gate refuses such a change (a password the scan cannot restore locks the account).
   */
  restores?: boolean;
}

export interface ProbeResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with `, ` except `set-cookie` (kept as an array). */
  headers: Record<string, string>;
  setCookies: string[];
  body: string;
  durationMs: number;
  /** Why the body was cut short (`--max-body`, a compression bomb): the evidence says so. */
  truncated?: string;
}

export interface HttpClient {
  /** Sends one request through the scan's agent, rate limit and timeout; recorded as a scan attempt. */
  send(request?: ProbeRequest): Promise<ProbeResponse>;
  /**
   * The operation's answer to its request as given (the first identity, nothing changed), for a check that only reads
   * the answer (its headers, its cookies): the answer another check already had is reused — on a write or a delete
   * too, where `send()` always goes to the wire — else it is sent now and shared in turn. Recorded as an attempt.
   */
  answerAsGiven(): Promise<ProbeResponse>;
  /**
   * Why the send gate would refuse this request (a destructive operation at defaults, a write naming an object no scan
   * identity owns), or undefined; nothing is sent. `send` of a refused request ends the check as skipped with it.
   */
  refusal(request?: ProbeRequest): string | undefined;
}

export interface CheckLog {
  debug(message: string): void;
  warn(message: string): void;
}

/** What proves a finding: a sentence, the response(s) that show it, and the finding it only follows from. */
export interface FindingEvidence {
  detail?: string;
  /** The response that shows the issue. */
  attempt?: ProbeResponse;
  /**
   * Several responses that together prove it, in order, each with what it was in the proof ("write by the --as-other
   * identity", "read-back by the owner", "restore by the owner"): credentials are redacted alike, so the role says who.
   */
  steps?: { attempt: ProbeResponse; role: string }[];
  /**
   * The check and issue this finding only follows from, e.g. a token re-signed with the secret jwt.weak_secret
   * recovered: when that finding is reported on the same operation, this one is linked to it and not scored again.
   */
  cause?: { checkId: string; issueId: string };
  /** The other request/response pairs a person needs to replay the proof (baseline, control, the differential's other half). */
  attempts?: ProbeResponse[];
  /** This finding's own score when what the operation is makes it lower than the issue's (never higher). */
  cvss?: Cvss;
  /**
   * The input that carried the proof, as `location.name` (`query.q`, `body.email`, `path.id`), for checks that attack
   * one input: it joins the finding's fingerprint, so the same issue through another input is another finding.
   */
  input?: string;
  /**
   * What proved a write (docs/architecture.md §2.8, oracles): a read of the same resource (`read`, `parent-read`), one
   * a link leads to (`linked`), the identity's own record (`self`), the list (`list`), a sign-in with the changed
   * credential (`login`), a new token's claims (`token`); the read operation and the exchanges that show it.
   */
  oracle?: { kind: OracleKind; operation: string; attempts: ProbeResponse[] };
  /**
   * The privilege chain this finding was reached through: step 1 the identity raised its own role (`raised`), step 2
   * what the raised identity reached (`reached`), each with its operation and what it showed.
   */
  chain?: { step: number; role: 'raised' | 'reached'; operation: string; detail: string; attempts?: ProbeResponse[] }[];
}

/** A request another check sent on the same operation and its answer, as passive checks see it (credentials redacted). */
export interface ObservedExchange {
  /** The check that sent it. */
  checkId: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: ProbeResponse;
}

export interface CheckContext<V extends object = Readonly<Record<string, unknown>>> {
  readonly operation: Operation;
  /**
   * The API model (docs/architecture.md §2.8): resources, links, the scan identities and what each owns, this and
   * every other operation's resource, role and object references. Checks read it instead of re-deriving any of it.
   */
  readonly model: ApiModel;
  readonly http: HttpClient;
  /**
   * The values of the options this check declared (`CheckDefinition.options`), typed from the declarations: the
   * user's value, else the declaration's `default`, else absent. Reading an option the check did not declare throws.
   */
  readonly options: V;
  /** A fact published by a check this one `dependsOn` (same operation). Reading any other check's facts throws. */
  fact<T = unknown>(checkId: string, key: string): T | undefined;
  /** Publishes a fact for the checks that depend on this one. */
  setFact(key: string, value: unknown): void;
  /**
   * Passive checks only: every exchange the other checks had on this operation (they have all finished). Citing one
   * of their responses as evidence copies the exchange into this check's report; nothing is sent again.
   */
  observed(): readonly ObservedExchange[];
  /**
   * Records a finding: the issue (one of this check's `issues`) failed on this operation. `attempt` is the response
   * that shows it; `attempts` adds the other request/response pairs a person needs to replay the proof (baseline,
   * control, the differential's other half).
   */
  report(issueId: string, evidence?: FindingEvidence): void;
  /**
   * What the whole scan has sent so far to this operation's URL path (every check, every identity): how many requests
   * (any method), and the statuses and response header names of the answers to this operation's method — so a burst
   * can count the scan's own traffic.
   */
  traffic(): { sent: number; statuses: readonly number[]; headerNames: readonly string[] };
  /**
   * State this check keeps across its runs on every operation of one scan (once-per-path work, a request budget);
   * nothing else reads it.
   */
  readonly scanState: Map<string, unknown>;
  /**
   * Registers a value this check discovered that works as a credential (a password a login accepted, the token it
   * answered with): like the scan's own credentials it never reaches the report — it is redacted from every result of
   * the scan (this check's evidence, facts and reasons, and any other check's records that hold it), as is,
   * JSON-escaped and URL-encoded. Register it as soon as it is known, before reporting. Values shorter than 4
   * characters are refused (they would redact innocent text): keep such values out of the evidence.
   */
  redact(value: string): void;
  /**
   * Ends the check as skipped with a reason (e.g. "endpoint does not require authentication"). `incomplete: true` when
   * it could not run for a reason the user can fix (a rejected credential…): the scan is then reported incomplete.
   */
  skip(reason: string, options?: { incomplete?: boolean }): never;
  readonly signal: AbortSignal;
  /**
   * Awaits `waiting` — something outside this check's requests: a callback to a listener of the check's own, a
   * deadline — without holding a `--concurrency` slot, so the scan's other checks send meanwhile; the check resumes
   * before any check that has not started, and the time it queues for that slot does not count against its
   * `timeoutMs`. Await it directly: whatever the check runs beside the wait also runs without a slot.
   */
  idle<T>(waiting: Promise<T>): Promise<T>;
  readonly log: CheckLog;
}

/** How a check's verdict is shared between operations (`CheckDefinition.sharedVerdict`). */
export interface SharedVerdict {
  /** What operations with one key share, for the covered operations' reason ("token verifier"). */
  subject: string;
  /**
   * The key of `operation` (any string: operations with equal keys share the verdict), or `undefined` to judge this
   * operation on its own. Computed after the check's dependencies ran there; `fact` reads their facts (same operation).
   */
  key(operation: Operation, fact: <T = unknown>(checkId: string, key: string) => T | undefined): string | undefined;
}

/** How an option's value is written on the command line and what a check receives. */
export type OptionType = 'string' | 'string[]' | 'integer' | 'boolean' | 'header';

/** What a check receives for each option type; `header` is `--flag 'Name: value'`. */
export interface OptionValueTypes {
  string: string;
  'string[]': readonly string[];
  integer: number;
  boolean: boolean;
  header: { readonly name: string; readonly value: string };
}

/**
 * One option a check reads, declared as ESLint rules declare `meta.schema`: the scanner builds its flag, `--help`
 * line, README row, report entry (redacted when `secret`) and validation from it, and hands each check only what
 * it declared. Declare an option shared by several checks once (built-ins: `checks/support/shared-options.ts`) and
 * list the same object in each check; two declarations of one name must agree on type and flag.
 */
export interface OptionDeclaration<T extends OptionType = OptionType> {
  /** The key in `ctx.options`, camelCase (`rateLimitBurst`). */
  name: string;
  type: T;
  /** The command-line flag, kebab-case (`--rate-limit-burst`). */
  flag: `--${string}`;
  /** One line for `--help` and the README. */
  doc: string;
  /** Shown in `--help` after the flag (`<path>`); defaults to `<value>`, `<n>` or `<'Name: value'>` by type. */
  valueName?: string;
  default?: OptionValueTypes[T];
  /** `integer` bounds, inclusive. */
  min?: number;
  max?: number;
  /** A credential: redacted from the report's options, evidence, facts and errors. */
  secret?: boolean;
}

/** `ctx.options` of a check that declared `O`: options with a `default` are always present. */
export type OptionValues<O extends readonly OptionDeclaration[]> = {
  readonly [D in O[number] as D['name']]: D extends { default: unknown }
    ? OptionValueTypes[D['type']]
    : OptionValueTypes[D['type']] | undefined;
};

/** Declares an option once so several checks can list it (keeps its literal name and type for `ctx.options`). */
export function defineOption<const D extends OptionDeclaration>(declaration: D): D {
  return declaration;
}

export interface CheckDefinition<O extends readonly OptionDeclaration[] = readonly OptionDeclaration[]> {
  /** Equals the file name without extension, e.g. `jwt.alg_none`. */
  id: string;
  name: string;
  description?: string;
  issues: IssueMeta[];
  /**
   * The highest score this check can report, which the threshold rules read before any request is sent. Leave it out:
   * the loader derives it from `issues` (the highest issue score, 0 without issues). Stated, it must equal that.
   */
  maxCvss?: number;
  dependsOn?: string[];
  /** Which scan kinds the check runs in; leave it out for the default, every kind but `discover` (scanner/scan-kinds.ts). */
  scanKinds?: ('curl' | 'openapi' | 'graphql' | 'discover')[];
  /** Runs once per scan on the first operation instead of once per operation (e.g. fingerprinting). */
  oncePerScan?: boolean;
  /**
   * Runs after every other check of the scan has finished, one task at a time (scanner/engine/run-scan.ts): for a
   * check that changes what every other check sends with (a scan identity's own role, even for a moment), so no other
   * check sees the change, or one whose timing other traffic would disturb (resource.redos). No check may depend on
   * an exclusive one.
   */
  exclusive?: boolean;
  /**
   * Runs again as the raised identity when a check proved the first identity can raise its own role (a privilege
   * chain): on the operations that refused it, its findings then carrying the chain (scanner/engine/follow-chains.ts).
   * For function-level and input checks; not with `oncePerScan` or `exclusive`.
   */
  rerunsAsRaised?: boolean;
  /**
   * Runs on GraphQL operations only, in every scan kind that has them (`scan graphql`, and `scan openapi` once it
   * found a GraphQL endpoint): `endpoint`, once per GraphQL endpoint, on its endpoint operation (`query{__typename}`);
   * `fields`, on each root-field operation. Other operations neither run it nor report it. Not with `oncePerScan`.
   */
  graphqlOperations?: 'endpoint' | 'fields';
  /** Returns `true` to run, or a reason string to be skipped with. */
  appliesTo?: (operation: Operation) => true | string;
  /**
   * Sends nothing and reads what the other checks received (`ctx.observed()`): runs on each operation after every
   * non-passive check there has finished.
   */
  passive?: boolean;
  /**
   * Sends the same request many times (bursts, timing): the runner runs it on `read` operations only (docs/architecture.md §2.6),
   * whatever its `appliesTo` says.
   */
  repeatsRequests?: boolean;
  /** Runs on each operation after every other check there has finished (it can count their traffic). */
  runsLast?: boolean;
  /**
   * The check answers a question about something operations share, not about one operation (a forged token asks the
   * token verifier): operations with the same `key` are judged once, on a representative — the first of them, read
   * operations before others, in scan order, whose run ended passed or failed. When it passed, the others pass as
   * covered by it (`coveredBy`, nothing sent); when it failed, each other operation runs for its own evidence. A `key`
   * of `undefined` runs the check on that operation as usual; so does every operation with `--per-operation`.
   */
  sharedVerdict?: SharedVerdict;
  /** Per-check time budget in ms (default set by the runner). */
  timeoutMs?: number;
  /** The options this check reads; each becomes a flag (`flag`) of the scan commands. */
  options?: O;
  run(ctx: CheckContext<OptionValues<O>>): Promise<void>;
}

/**
 * Declares a check. Identity function with types (`ctx.options` is typed from `options`); the loader validates the
 * meta against `schemas/check-meta.schema.json`.
 */
export function defineCheck<const O extends readonly OptionDeclaration[] = []>(
  definition: CheckDefinition<O>,
): CheckDefinition<O> {
  return definition;
}

export { changesExistingObject, operationClass, type OperationClass } from './operation-class.js';
export {
  describeInput,
  isTextInput,
  operationInputs,
  textOf,
  type InputLocation,
  type OperationInput,
} from './model/inputs.js';
export { canCarry, withInput, withInputs, type InputChange } from './model/input-request.js';
export { payloadRefusal } from './model/input-safety.js';
export { PRIVILEGE_FIELD } from './model/write-rule.js';
export { readRequestBody, type BodyEncoding, type RequestBody } from './model/request-body.js';
