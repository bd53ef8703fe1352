/**
 * The `CheckContext` a check runs with: its HTTP client (recording attempts, sharing the operation's baseline answer,
 * observed by the identity canary), facts from its declared dependencies, what passive checks observe, its findings.
 */
import { randomUUID } from 'node:crypto';
import type {
  ApiModel,
  CheckContext,
  CheckDefinition,
  CheckLog,
  ObservedExchange,
  Operation,
  ProbeRequest,
  ProbeResponse,
} from '../api.js';
import { scannerError } from '../errors.js';
import type { ScanHttp, WireRequest } from '../http.js';
import { changedInputs } from '../model/server-errors.js';
import { FIRST } from '../model/identities.js';
import type { ScanModel } from '../model/scan-model.js';
import { buildWireRequest } from '../probe-request.js';
import { RefusedRequest } from '../safety.js';
import type { Attempt, Finding } from '../scan-result.js';
import { redactSecrets } from '../secrets.js';
import { SkipSignal } from './skip-signal.js';
import type { DiscoveredSecrets } from './stores/discovered-secrets.js';
import type { ExchangeLog } from './stores/exchange-log.js';
import type { FactStore } from './stores/fact-store.js';
import type { TrafficStore } from './stores/traffic-store.js';

const REPORTED_BODY_LIMIT = 4096;

function truncate(text: string): string {
  return text.length > REPORTED_BODY_LIMIT ? `${text.slice(0, REPORTED_BODY_LIMIT)}…[truncated]` : text;
}

export interface ContextInput {
  definition: CheckDefinition;
  operation: Operation;
  http: ScanHttp;
  /** Only the options this check declared (`optionsForCheck`). */
  options: Readonly<Record<string, unknown>>;
  /** Every credential of the scan for this operation (`secretsOf`), redacted from what the check records. */
  secrets: readonly string[];
  facts: FactStore;
  exchanges: ExchangeLog;
  /** Which operation's facts a dependency's live under (once-per-scan checks publish on the first operation). */
  factOperationId: (checkId: string) => string;
  signal: AbortSignal;
  /** `ctx.idle`: waits without holding a `--concurrency` slot (idle-without-slot.ts). */
  idle: <T>(waiting: Promise<T>) => Promise<T>;
  log: CheckLog;
  traffic: TrafficStore;
  /** This check's state across its runs in this scan (`ctx.scanState`). */
  scanState: Map<string, unknown>;
  /**
   * The operation's answer to its request as given, shared by the checks that do not repeat requests: on a read
   * operation each check's first as-given request reuses it instead of sending the same request again (later ones go
   * to the wire); on any operation `answerAsGiven` reuses it.
   */
  baseline?: {
    get(): Promise<ProbeResponse> | undefined;
    set(response: Promise<ProbeResponse>): void;
    /** A read operation: a check's first as-given `send` reuses the answer too. */
    firstSendReuses: boolean;
  };
  /** The scan's API model, and what the check sees of it. */
  model: ScanModel;
  modelView: ApiModel;
  /** Values checks discovered that work as credentials (`ctx.redact`), redacted from the whole scan when it ends. */
  discoveredSecrets: DiscoveredSecrets;
  /** The identity canary: requests that carry the supplied credential stop once it is lost. */
  identity?: {
    lost(): { reason: string } | undefined;
    counted(): void;
    observe(operationId: string, asGiven: boolean, status: number): void;
  };
}

export interface RunningContext {
  ctx: CheckContext;
  attempts: Attempt[];
  findings: Finding[];
  published: Map<string, unknown>;
  /**
   * Attack credentials (`ProbeRequest.credential`) the target answered below 400: working credentials now, so the
   * runner redacts them from everything this check recorded (docs/architecture.md §2.6, evidence).
   */
  acceptedForgeries: Set<string>;
}

export function createContext(input: ContextInput): RunningContext {
  const { definition, operation } = input;
  const attempts: Attempt[] = [];
  const findings: Finding[] = [];
  const acceptedForgeries = new Set<string>();
  const forgedOf = new WeakMap<ProbeResponse, string>();
  let baselineUsed = false;
  const attemptOf = new WeakMap<ProbeResponse, string>();
  const passive = definition.passive === true;
  const published = input.facts.publish(definition.id, operation.id);
  // Credentials the scan obtained while it ran (a renewed token) are redacted like the ones it started with.
  let known = -1;
  let secrets: readonly string[] = input.secrets;
  const redact = (text: string): string => {
    const held = input.model.secrets();
    if (held.length !== known) {
      known = held.length;
      secrets = [...new Set([...input.secrets, ...held])]
        .filter((v) => v.length >= 4)
        .sort((a, b) => b.length - a.length);
    }
    return redactSecrets(text, secrets);
  };
  const issueIds = new Set(definition.issues.map((i) => i.id));
  const dependsOn = new Set(definition.dependsOn ?? []);

  // A passive check cites another check's exchange: the pair is copied into this check's attempts (same id, not resent).
  const observedAttempt = (response: ProbeResponse): string | undefined => {
    if (!passive) return undefined;
    const logged = input.exchanges.of(operation.id).find((e) => e.response === response);
    if (!logged) return undefined;
    if (!attempts.includes(logged.attempt)) attempts.push(logged.attempt);
    attemptOf.set(response, logged.attempt.id);
    return logged.attempt.id;
  };

  // The operation as given, to tell which inputs a request that broke the server changed.
  let given: WireRequest | undefined;
  const serverError = (wire: WireRequest, attemptId: string, outcome: { status?: number; error?: string }): void => {
    given ??= buildWireRequest(operation, {});
    input.model.serverErrors.record({
      operationId: operation.id,
      checkId: definition.id,
      attemptId,
      method: wire.method,
      url: redact(wire.url),
      ...outcome,
      inputs: changedInputs(given, wire).map((change) =>
        change.value === undefined ? change : { ...change, value: redact(change.value) },
      ),
    });
  };

  /** The probe with the identity it names (`as`) put in: that identity's credential instead of the operation's. */
  const asIdentity = (probe: ProbeRequest | undefined): { probe: ProbeRequest | undefined; identity?: string } => {
    const name = probe?.as;
    const identity = input.model.identity(name ?? FIRST);
    if (name !== undefined && !identity)
      throw scannerError(
        'invalid_check',
        `${definition.id}: sends as identity "${name}", which the scan does not have`,
      );
    if (!identity) return { probe };
    const { as: _as, ...rest } = probe ?? {};
    const fields = identity.probeFields(operation);
    const merged: ProbeRequest = {
      ...rest,
      ...(rest.credential === undefined && fields.credential !== undefined ? { credential: fields.credential } : {}),
      ...(fields.headers || rest.headers ? { headers: { ...fields.headers, ...rest.headers } } : {}),
    };
    const sendsNone = merged.credential === null && !fields.headers;
    return {
      probe: merged,
      ...(sendsNone || (!operation.credential && !fields.headers) ? {} : { identity: identity.name }),
    };
  };

  /** The attempt a request is recorded as, its request redacted like everything the check records. */
  const attemptFor = (wire: WireRequest): Attempt => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(wire.headers))
      headers[name] = redact(Array.isArray(value) ? value.join(', ') : value);
    return {
      id: randomUUID(),
      request: {
        method: wire.method,
        url: redact(wire.url),
        headers,
        // A body credential (a token argument) travels in the body: redacted there like in a header.
        ...(wire.body !== undefined ? { body: truncate(redact(wire.body)) } : {}),
      },
    };
  };

  /**
   * The operation's stored answer as given, a copy, when this request may reuse it (`answerAsGiven`, or a read
   * operation's first as-given `send`); `failed` when the stored one failed (a timeout, its check aborted), so this
   * request's answer replaces it.
   */
  const storedAnswer = async (answerOnly: boolean): Promise<{ shared?: ProbeResponse; failed?: true }> => {
    const reuses = answerOnly || (input.baseline?.firstSendReuses === true && !baselineUsed);
    if (!input.baseline || !reuses) return {};
    if (!answerOnly) baselineUsed = true;
    const cached = input.baseline.get();
    if (!cached) return {};
    return cached.then(
      (r) => ({ shared: { ...r, headers: { ...r.headers }, setCookies: [...r.setCookies] } }),
      () => ({ failed: true as const }),
    );
  };

  /** What an answer from the wire tells the scan: its traffic, a server error, the identity canary. */
  const noteFresh = (wire: WireRequest, attemptId: string, response: ProbeResponse, validates: boolean): void => {
    input.traffic.record(wire.method, wire.url, response.status, Object.keys(response.headers));
    if (response.status >= 500) serverError(wire, attemptId, { status: response.status });
    input.identity?.observe(operation.id, validates, response.status);
    input.identity?.counted();
  };

  /** The answer recorded on its attempt, redacted: targets echo what they were sent (debug pages, reflected headers). */
  const recordAnswer = (attempt: Attempt, response: ProbeResponse): void => {
    attempt.response = {
      ...response,
      headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, redact(value)])),
      setCookies: response.setCookies.map(redact),
      body: truncate(redact(response.body)),
    };
    attemptOf.set(response, attempt.id);
    input.exchanges.record(operation.id, { checkId: definition.id, attempt, response });
  };

  const send = async (asked: ProbeRequest | undefined, answerOnly: boolean): Promise<ProbeResponse> => {
    input.signal.throwIfAborted();
    if (passive)
      throw scannerError('invalid_check', `${definition.id}: a passive check sends nothing (ctx.observed())`);
    // "As given" is the first identity's request: sharing its baseline answer does not depend on how it is sent.
    const asGiven =
      !asked || Object.entries(asked).every(([key, value]) => value === undefined || (key === 'as' && value === FIRST));
    const { probe, identity } = asIdentity(asked);
    // The supplied credential died under the scan: what it would prove now means nothing.
    const sendsFirst = (asked?.as ?? FIRST) === FIRST && asked?.credential === undefined;
    const loss = operation.credential && sendsFirst ? input.identity?.lost() : undefined;
    if (loss) throw new SkipSignal(loss.reason, true);
    const wire = {
      ...buildWireRequest(operation, probe, input.signal),
      ...(identity ? { identity } : {}),
      ...(probe?.restores ? { restores: true } : {}),
      checkId: definition.id,
    };
    const attempt = attemptFor(wire);
    attempts.push(attempt);
    try {
      const { shared, failed } = asGiven ? await storedAnswer(answerOnly) : {};
      const fresh = shared ? undefined : input.http.send(wire);
      if (fresh && asGiven && input.baseline && (!input.baseline.get() || failed)) input.baseline.set(fresh);
      const response = shared ?? (await fresh!);
      if (fresh) noteFresh(wire, attempt.id, response, asGiven && sendsFirst);
      if (typeof probe?.credential === 'string' && probe.credential.length >= 8) {
        forgedOf.set(response, probe.credential);
        if (response.status < 400) acceptedForgeries.add(probe.credential);
      }
      recordAnswer(attempt, response);
      return response;
    } catch (error) {
      // The send gate refused it before the wire: nothing was sent, and the check cannot run here.
      if (error instanceof RefusedRequest) {
        attempts.splice(attempts.indexOf(attempt), 1);
        throw new SkipSignal(error.reason);
      }
      attempt.error = redact(error instanceof Error ? error.message : String(error));
      // No answer at all (a dropped connection, a timeout): evidence too, unless the scan itself stopped.
      if (!input.signal.aborted) serverError(wire, attempt.id, { error: attempt.error });
      throw error;
    }
  };

  const ctx: CheckContext = {
    operation,
    model: input.modelView,
    options: input.options,
    signal: input.signal,
    idle: (waiting) => input.idle(waiting),
    log: input.log,
    http: {
      refusal(asked?: ProbeRequest) {
        const { probe, identity } = asIdentity(asked);
        return input.http.refusal({
          ...buildWireRequest(operation, probe, input.signal),
          ...(identity ? { identity } : {}),
        });
      },
      send: (asked?: ProbeRequest) => send(asked, false),
      answerAsGiven: () => send(undefined, true),
    },
    observed(): readonly ObservedExchange[] {
      if (!passive) throw scannerError('invalid_check', `${definition.id}: only passive checks read ctx.observed()`);
      return input.exchanges
        .of(operation.id)
        .map(({ checkId, attempt, response }) => ({ checkId, request: attempt.request, response }));
    },
    traffic: () => input.traffic.of(operation.method, operation.url),
    scanState: input.scanState,
    fact<T>(checkId: string, key: string): T | undefined {
      if (!dependsOn.has(checkId)) {
        throw scannerError(
          'unknown_check',
          `${definition.id}: reads a fact of "${checkId}", which is not in its dependsOn`,
        );
      }
      return input.facts.get(checkId, input.factOperationId(checkId))?.get(key) as T | undefined;
    },
    setFact(key, value) {
      published.set(key, value);
    },
    report(issueId, evidence) {
      if (!issueIds.has(issueId))
        throw scannerError(
          'invalid_check',
          `${definition.id}: reported issue "${issueId}", which is not in its issues`,
        );
      const cite = (response: ProbeResponse): string | undefined =>
        attemptOf.get(response) ?? observedAttempt(response);
      const attemptId = evidence?.attempt ? cite(evidence.attempt) : undefined;
      const others = (evidence?.attempts ?? [])
        .map(cite)
        .filter((id): id is string => id !== undefined && id !== attemptId);
      const steps = (evidence?.steps ?? [])
        .map((step) => ({ attemptId: cite(step.attempt), role: redact(step.role) }))
        .filter((step): step is { attemptId: string; role: string } => step.attemptId !== undefined);
      // Forged credentials cited as proof were accepted, whatever the status (a non-admin's 401 included).
      for (const cited of [
        evidence?.attempt,
        ...(evidence?.attempts ?? []),
        ...(evidence?.steps ?? []).map((step) => step.attempt),
      ]) {
        const forged = cited ? forgedOf.get(cited) : undefined;
        if (forged) acceptedForgeries.add(forged);
      }
      const issue = definition.issues.find((i) => i.id === issueId)!;
      if (evidence?.cvss && evidence.cvss.score > issue.cvss.score) {
        throw scannerError(
          'invalid_check',
          `${definition.id}: scored ${issueId} ${evidence.cvss.score}, above the issue's ${issue.cvss.score}`,
        );
      }
      findings.push({
        issueId,
        ...(evidence?.detail ? { detail: redact(evidence.detail) } : {}),
        ...(attemptId ? { attemptId } : {}),
        ...(others.length > 0 ? { attemptIds: [...new Set(others)] } : {}),
        ...(steps.length > 0 ? { steps } : {}),
        ...(evidence?.cause ? { cause: { checkId: evidence.cause.checkId, issueId: evidence.cause.issueId } } : {}),
        ...(evidence?.oracle
          ? {
              oracle: {
                kind: evidence.oracle.kind,
                operation: evidence.oracle.operation,
                attemptIds: evidence.oracle.attempts.map(cite).filter((id): id is string => id !== undefined),
              },
            }
          : {}),
        ...(evidence?.chain
          ? {
              chain: evidence.chain.map((step) => {
                const ids = (step.attempts ?? []).map(cite).filter((id): id is string => id !== undefined);
                return {
                  step: step.step,
                  role: step.role,
                  operation: step.operation,
                  detail: redact(step.detail),
                  ...(ids.length > 0 ? { attemptIds: ids } : {}),
                };
              }),
            }
          : {}),
        ...(evidence?.cvss ? { cvss: { ...evidence.cvss } } : {}),
        ...(evidence?.input ? { input: redact(evidence.input) } : {}),
      });
    },
    redact(value) {
      input.discoveredSecrets.add(value, definition.id);
    },
    skip(reason, options): never {
      throw new SkipSignal(reason, options?.incomplete === true);
    },
  };
  return { ctx, attempts, findings, published, acceptedForgeries };
}
