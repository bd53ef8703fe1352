/**
 * graphql.batching — the endpoint answers a JSON array of operations in one request without a cap (OWASP API4:2023):
 * one HTTP request, many operations, so per-request rate limits and login throttles count it once.
 *
 * Requests (once per endpoint, bounded): 1) a batch of 10 `query{__typename}`; only when all 10 are answered, 2) a
 * batch of 100. Each request is cut off at 5 s; a batch answered slower than 2 s stops the probe and is reported.
 * Verdict: failed when the 100-operation batch comes back as an array of 100 answers with data (or a batch is slow);
 * passed when batches are refused, or capped below 100.
 */
import { defineCheck } from '../scanner/api.js';
import { JSON_HEADERS, parseBatchAnswer } from '../scanner/graphql/graphql-request.js';
import { endpointOf, PROBE_TIMEOUT_MS, slowDetail, SLOW_MS } from './support/graphql-probe.js';

const ISSUE = 'graphql.batching';
const SIZES = [10, 100];

export default defineCheck({
  id: 'graphql.batching',
  name: 'GraphQL Query Batching',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL batches of operations are answered without a cap',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:N/VA:L/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: {
        owasp: 'API4:2023 Unrestricted Resource Consumption',
        cwe: 'CWE-770: Allocation of Resources Without Limits or Throttling',
      },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    for (const size of SIZES) {
      const batch = Array.from({ length: size }, () => ({ query: 'query{__typename}' }));
      const response = await ctx.http.send({
        method: 'POST',
        url: endpointOf(ctx.operation),
        headers: { ...JSON_HEADERS },
        body: JSON.stringify(batch),
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      const answers = response.status === 200 ? parseBatchAnswer(response.body) : undefined;
      const answered = answers?.filter((a) => a.data && a.data.__typename).length ?? 0;
      if (response.durationMs > SLOW_MS && answered > 0)
        return ctx.report(ISSUE, { detail: slowDetail(`a batch of ${size} operations`, response), attempt: response });
      if (answered < size) return ctx.log.debug(`a batch of ${size} got ${answered} answers (${response.status})`);
      if (size === SIZES[SIZES.length - 1])
        ctx.report(ISSUE, {
          detail: `a JSON array of ${size} operations in one request was answered with ${answered} results (${response.durationMs} ms)`,
          attempt: response,
        });
    }
  },
});
