/**
 * discover.server_signature — response headers reveal the server, framework, language or platform (Info).
 * Request: the operation's answer as given, once per scan — none when another check already had it, else 1. Verdict: failed when at least one technology is recognised.
 * Publishes the fact `fingerprint` (buckets of VulnAPI's fingerprint data: servers, frameworks, languages, …) for the
 * report's technology table.
 * Differs from VulnAPI: our own header rules (checks/support/fingerprint-rules.ts) instead of the Wappalyzer database,
 * so body-only fingerprints are not recognised.
 */
import { defineCheck } from '../scanner/api.js';
import { FINGERPRINT_BUCKETS, fingerprintHeaders } from './support/fingerprint-rules.js';

const ISSUE = 'discover.fingerprint';

export default defineCheck({
  id: 'discover.server_signature',
  name: 'Server Signature Discovery',
  issues: [
    {
      id: ISSUE,
      name: 'Service Fingerprinting',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: { owasp: 'API8:2023 Security Misconfiguration' },
    },
  ],
  oncePerScan: true,
  scanKinds: ['curl', 'openapi', 'graphql', 'discover'],
  async run(ctx) {
    const response = await ctx.http.answerAsGiven();
    const fingerprint = fingerprintHeaders(response.headers);
    ctx.setFact('fingerprint', fingerprint);
    const found = FINGERPRINT_BUCKETS.flatMap((bucket) => fingerprint[bucket].map((app) => `${bucket}: ${app.name}`));
    if (found.length > 0) ctx.report(ISSUE, { detail: found.join(', '), attempt: response });
  },
});
