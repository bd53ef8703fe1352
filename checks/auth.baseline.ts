/**
 * auth.baseline — probe (maxCvss 0, reports nothing). Gatehouse addition, not in VulnAPI: VulnAPI never checks that an
 * endpoint requires authentication, so public endpoints got Critical JWT findings (docs/architecture.md §R.14).
 *
 * Requests (only when the operation carries a credential): 1) the operation as given, 2) without any credential,
 * 3) with a random garbage credential. Publishes `facts` (checks/support/auth-baseline-facts.ts): requiresCredential,
 * credentialAccepted, garbageRejected, notPermitted (valid credential, 403 or a 401 unlike the invalid ones'),
 * answersSameWithout (public: the engine caps authentication findings there at Info), the statuses and answer digests.
 * Skipped when the operation has no credential. GraphQL answers count as the status they stand for
 * (checks/support/graphql-answer.ts: a 200 with "not authenticated" is a 401), and the facts name the field. When the
 * send gate would refuse the operation as given (a DELETE at defaults, a write naming no object of a scan identity's),
 * it sends nothing and publishes `refused` (the reason) instead: the checks that need the facts skip with it.
 * Verdict: none — a probe reports no issue; its facts decide the verdicts of the checks that depend on it.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../scanner/api.js';
import { answerDigest, baselineFacts, saysNotPermitted } from './support/auth-baseline-facts.js';
import { answerStatus } from './support/graphql-answer.js';

export default defineCheck({
  id: 'auth.baseline',
  name: 'Authentication Baseline',
  description: 'Learns how the endpoint answers with the supplied credential, without one, and with a garbage one.',
  issues: [],
  appliesTo: (operation) => (operation.credential ? true : 'operation has no credential'),
  async run(ctx) {
    // The operation as given may not be sent (a DELETE at defaults, a write naming nobody's object the scan owns):
    // nothing to baseline. The checks that need the facts skip with this reason; the ones that make their own object
    // to work on (bola.modify, bfla.admin_operation on a DELETE) still run.
    const refused = ctx.http.refusal();
    if (refused) return ctx.setFact('refused', refused);
    const credential = await ctx.http.send();
    const noCredential = await ctx.http.send({ credential: null });
    // Random hex, not JWT-shaped: it must be rejected by any endpoint that checks credentials at all.
    const garbage = await ctx.http.send({ credential: `gatehouse-invalid-${randomBytes(16).toString('hex')}` });
    // GraphQL answers a refusal with 200 and an error: each answer counts as the status it stands for.
    const status = (response: typeof credential): number => answerStatus(response, ctx.operation);
    const facts = baselineFacts(
      { credential: status(credential), noCredential: status(noCredential), garbage: status(garbage) },
      {
        credential: answerDigest(credential),
        noCredential: answerDigest(noCredential),
        garbage: answerDigest(garbage),
      },
      saysNotPermitted(credential),
    );
    const graphql = ctx.operation.graphql;
    ctx.setFact('facts', graphql ? { ...facts, graphql: graphql.field ? { field: graphql.field } : {} } : facts);
    ctx.log.debug(
      `baseline: credential ${credential.status}, none ${noCredential.status}, garbage ${garbage.status}` +
        ` (requires credential: ${facts.requiresCredential}, garbage rejected: ${facts.garbageRejected})`,
    );
  },
});
