/** The `CheckContext` a check runs with: its HTTP client (recording attempts), facts from its declared deps, findings. */
import { redactSecrets } from './secrets.js';
import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDefinition, CheckLog, ObservedExchange, Operation, ProbeRequest, ProbeResponse } from './api.js';
import { scannerError } from './errors.js';
import type { ScanHttp } from './http.js';
import { buildWireRequest } from './probe-request.js';
import type { Attempt, Finding } from './scan-result.js';

export const REPORTED_BODY_LIMIT = 4096;

/** Thrown by `ctx.skip(reason)`; the runner turns it into a skipped result. */
export class SkipSignal {
  constructor(readonly reason: string) {}
}

export interface FactStore {
  get(checkId: string, operationId: string): Map<string, unknown> | undefined;
  publish(checkId: string, operationId: string): Map<string, unknown>;
}

export function createFactStore(): FactStore {
  const facts = new Map<string, Map<string, unknown>>();
  const key = (checkId: string, operationId: string): string => `${checkId}\u0000${operationId}`;
  return {
    get: (checkId, operationId) => facts.get(key(checkId, operationId)),
    publish(checkId, operationId) {
      const existing = facts.get(key(checkId, operationId));
      if (existing) return existing;
      const created = new Map<string, unknown>();
      facts.set(key(checkId, operationId), created);
      return created;
    },
  };
}

/** One exchange a check had, kept for the passive checks of the same operation. */
export interface LoggedExchange {
  checkId: string;
  attempt: Attempt;
  response: ProbeResponse;
}

/** Every answered request of the scan by operation id: what passive checks read (`ctx.observed()`). */
export interface ExchangeLog {
  record(operationId: string, exchange: LoggedExchange): void;
  of(operationId: string): readonly LoggedExchange[];
}

export function createExchangeLog(): ExchangeLog {
  const byOperation = new Map<string, LoggedExchange[]>();
  return {
    record(operationId, exchange) {
      const list = byOperation.get(operationId) ?? [];
      list.push(exchange);
      byOperation.set(operationId, list);
    },
    of: (operationId) => byOperation.get(operationId) ?? [],
  };
}

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
  log: CheckLog;
}

export interface RunningContext {
  ctx: CheckContext;
  attempts: Attempt[];
  findings: Finding[];
  published: Map<string, unknown>;
}

export function createContext(input: ContextInput): RunningContext {
  const { definition, operation } = input;
  const attempts: Attempt[] = [];
  const findings: Finding[] = [];
  const attemptOf = new WeakMap<ProbeResponse, string>();
  const passive = definition.passive === true;
  const published = input.facts.publish(definition.id, operation.id);
  const redact = (text: string): string => redactSecrets(text, input.secrets);
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

  const ctx: CheckContext = {
    operation,
    options: input.options,
    signal: input.signal,
    log: input.log,
    http: {
      async send(probe?: ProbeRequest) {
        input.signal.throwIfAborted();
        if (passive) throw scannerError('invalid_check', `${definition.id}: a passive check sends nothing (ctx.observed())`);
        const wire = buildWireRequest(operation, probe, input.signal);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(wire.headers)) headers[name] = redact(Array.isArray(value) ? value.join(', ') : value);
        const attempt: Attempt = {
          id: randomUUID(),
          request: { method: wire.method, url: redact(wire.url), headers, ...(wire.body !== undefined ? { body: truncate(wire.body) } : {}) },
        };
        attempts.push(attempt);
        try {
          const response = await input.http.send(wire);
          // Targets echo what they were sent (debug pages, reflected headers): the answer is redacted like the request.
          const responseHeaders = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, redact(value)]));
          attempt.response = { ...response, headers: responseHeaders, setCookies: response.setCookies.map(redact), body: truncate(redact(response.body)) };
          attemptOf.set(response, attempt.id);
          input.exchanges.record(operation.id, { checkId: definition.id, attempt, response });
          return response;
        } catch (error) {
          attempt.error = redact(error instanceof Error ? error.message : String(error));
          throw error;
        }
      },
    },
    observed(): readonly ObservedExchange[] {
      if (!passive) throw scannerError('invalid_check', `${definition.id}: only passive checks read ctx.observed()`);
      return input.exchanges.of(operation.id).map(({ checkId, attempt, response }) => ({ checkId, request: attempt.request, response }));
    },
    fact<T>(checkId: string, key: string): T | undefined {
      if (!dependsOn.has(checkId)) {
        throw scannerError('unknown_check', `${definition.id}: reads a fact of "${checkId}", which is not in its dependsOn`);
      }
      return input.facts.get(checkId, input.factOperationId(checkId))?.get(key) as T | undefined;
    },
    setFact(key, value) {
      published.set(key, value);
    },
    report(issueId, evidence) {
      if (!issueIds.has(issueId)) throw scannerError('invalid_check', `${definition.id}: reported issue "${issueId}", which is not in its issues`);
      const cite = (response: ProbeResponse): string | undefined => attemptOf.get(response) ?? observedAttempt(response);
      const attemptId = evidence?.attempt ? cite(evidence.attempt) : undefined;
      const others = (evidence?.attempts ?? []).map(cite).filter((id): id is string => id !== undefined && id !== attemptId);
      const steps = (evidence?.steps ?? [])
        .map((step) => ({ attemptId: cite(step.attempt), role: redact(step.role) }))
        .filter((step): step is { attemptId: string; role: string } => step.attemptId !== undefined);
      findings.push({
        issueId,
        ...(evidence?.detail ? { detail: redact(evidence.detail) } : {}),
        ...(attemptId ? { attemptId } : {}),
        ...(others.length > 0 ? { attemptIds: [...new Set(others)] } : {}),
        ...(steps.length > 0 ? { steps } : {}),
        ...(evidence?.cause ? { cause: { checkId: evidence.cause.checkId, issueId: evidence.cause.issueId } } : {}),
      });
    },
    skip(reason): never {
      throw new SkipSignal(reason);
    },
  };
  return { ctx, attempts, findings, published };
}
