/**
 * The services one scan builds once and all its check tasks share: the API model (docs/architecture.md §2.8), the
 * HTTP client (one agent, the per-host rate limit, the send gate with the model's write rule) and the identity
 * canary. Opened before the first task: the model learns who the identities are and what they own, and the
 * operations come back filled with the first identity's own values.
 */
import type { ApiModel, Operation, ProbeResponse } from '../api.js';
import { FIRST } from '../model/identities.js';
import { apiModelView } from '../model/api-model.js';
import { createScanHttp, type ScanHttp } from '../http.js';
import { canaryOperation, createIdentityCanary, type IdentityCanary } from '../identity-canary.js';
import { createScanModel, identitySpecs, type ModelSend, type ScanModel } from '../model/scan-model.js';
import { buildWireRequest } from '../probe-request.js';
import type { ScanInput } from './scan-input.js';

export interface ScanServices {
  readonly http: ScanHttp;
  readonly model: ScanModel;
  /** What checks see of it (`ctx.model`). */
  readonly modelView: ApiModel;
  /** Answers the first identity's read operations got as given while the model learned: the checks' baselines. */
  readonly baselines: ReadonlyMap<string, Promise<ProbeResponse>>;
  /** How the model sends its own requests (learning, sign-ins, the clean-up after the checks). */
  readonly modelSend: ModelSend;
  /** Present when an operation carries a credential to re-validate and the scan asked for it (`canaryEvery`). */
  readonly canary?: IdentityCanary;
  /** Releases what the services hold (the HTTP agent's sockets) once the scan is over. */
  close(): void;
}

export async function openScanServices(input: ScanInput): Promise<{ services: ScanServices; operations: Operation[] }> {
  const asOther = input.options?.asOther as { name: string; value: string } | undefined;
  const model = createScanModel({
    operations: input.model?.operations ?? input.operations,
    ...(input.model?.document ? { document: input.model.document } : {}),
    given: input.model?.given ?? input.kind === 'curl',
    identities: identitySpecs(input.identities, asOther),
  });
  const http = createScanHttp({
    rate: input.rate,
    requestTimeoutMs: input.requestTimeoutMs,
    connectTimeoutMs: input.connectTimeoutMs,
    followRedirects: input.followRedirects,
    maxRedirects: input.maxRedirects,
    tls: input.tls,
    proxy: input.proxy,
    allowDestructive: input.allowDestructive,
    maxBodyBytes: input.maxBodyBytes,
    // GraphQL reads are POSTs: its operations join the write rule once their classes say which are reads.
    ...(input.kind !== 'graphql'
      ? {
          model: {
            refuse: (request) => model.refuse(request),
            createdUrl: (url) => model.created.byUrl(url) !== undefined,
            observe: (request, response) => model.observe(request, { ...response, setCookies: [], durationMs: 0 }),
          },
        }
      : {}),
  });
  // The first identity's reads while the model learns are the answers its operations get as given: shared with the
  // checks (their first as-given request), so learning costs no extra request for the first identity.
  const learned = new Map<string, { url: string; response: Promise<ProbeResponse> }>();
  let learning = true;
  const modelSend: ModelSend = (operation, probe, identity) => {
    const fields = identity ? identity.probeFields(operation) : {};
    const sent = http.send({
      ...buildWireRequest(operation, { ...probe, ...fields }, input.signal),
      ...(identity ? { identity: identity.name } : {}),
    });
    const asGiven = Object.keys(fields).length === 0 && Object.keys(probe).every((key) => key === 'url');
    if (learning && identity?.name === FIRST && asGiven && probe.url !== undefined)
      learned.set(operation.id, { url: probe.url, response: sent });
    return sent;
  };
  try {
    const operations = await model.prepare(input.operations, modelSend);
    learning = false;
    const baselines = new Map<string, Promise<ProbeResponse>>();
    for (const operation of operations) {
      const answer = learned.get(operation.id);
      if (answer && answer.url === operation.url && operation.body === undefined)
        baselines.set(operation.id, answer.response);
    }
    const canaryTarget = canaryOperation(operations);
    const canary =
      canaryTarget && input.canaryEvery !== undefined
        ? createIdentityCanary(http, canaryTarget, input.canaryEvery, input.signal)
        : undefined;
    return {
      services: {
        http,
        model,
        modelView: apiModelView(model),
        baselines,
        modelSend,
        ...(canary ? { canary } : {}),
        close: () => http.close(),
      },
      operations,
    };
  } catch (error) {
    http.close();
    throw error;
  }
}
