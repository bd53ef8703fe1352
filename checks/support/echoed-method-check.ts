/**
 * The checks that ask whether the server answers a tracing method (TRACE, TRACK) by echoing the request back, which
 * shows scripts the cookies and Authorization header a browser added (cross-site tracing). Each is its method and its
 * issue's name; they share the rest: one request per path with the method and a random marker header, failed when the
 * answer echoes it (echoed-method.ts), scored 0 as VulnAPI scores it (fetch and XMLHttpRequest refuse both methods, so
 * a page's scripts cannot send them).
 */
import { randomBytes } from 'node:crypto';
import { defineCheck, type CheckDefinition } from '../../scanner/api.js';
import { echoesRequest } from './echoed-method.js';
import { onGraphqlEndpointOnly } from './graphql-answer.js';
import { probeUntilShownClear } from './probe-until-shown-clear.js';

export interface EchoedMethodCheck {
  id: string;
  name: string;
  method: 'TRACE' | 'TRACK';
  issue: { id: string; name: string; url: string };
}

export function defineEchoedMethodCheck({ id, name, method, issue }: EchoedMethodCheck): CheckDefinition {
  return defineCheck({
    id,
    name,
    issues: [
      {
        id: issue.id,
        name: issue.name,
        url: issue.url,
        cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
        classifications: { owasp: 'API8:2023 Security Misconfiguration', cwe: 'CWE-489: Active Debug Code' },
      },
    ],
    // In a GraphQL scan every field shares the endpoint's request line: probed once, on the endpoint operation.
    appliesTo: onGraphqlEndpointOnly,
    async run(ctx) {
      // Every operation of a path sends the same request (GET /items and POST /items): once the first showed no echo,
      // the others pass without sending it again; an echo is probed (and reported) on each, so shards and runs agree.
      const path = new URL(ctx.operation.url).pathname;
      const safeOn = await probeUntilShownClear(ctx, path, async () => {
        const marker = randomBytes(8).toString('hex');
        const response = await ctx.http.send({ method, body: null, headers: { 'x-gatehouse-trace': marker } });
        const echoed = echoesRequest(response, method, marker);
        if (echoed)
          ctx.report(issue.id, { detail: `${method} answered 200 and echoed the request`, attempt: response });
        return !echoed;
      });
      if (safeOn) ctx.log.debug(`${method} ${path} does not echo (probed on ${safeOn})`);
    },
  });
}
