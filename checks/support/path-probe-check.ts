/**
 * The discover checks that look for something published at well-known paths (OpenAPI descriptions, exposed files,
 * health endpoints, well-known URIs): each is its list of paths and what a hit's body must look like. They share the
 * rest: one Info issue (nothing is proven exploitable, only exposed), once per scan, in `discover` scans, and the run —
 * the paths probed without credential behind a control request (probe-paths.ts), every hit one finding.
 */
import { defineCheck, type CheckDefinition } from '../../scanner/api.js';
import { probePaths, reportHits, type PathProbe } from './probe-paths.js';

export interface PathProbeCheck {
  id: string;
  name: string;
  issue: { id: string; name: string; owasp: string };
  probes: readonly PathProbe[];
}

export function definePathProbeCheck({ id, name, issue, probes }: PathProbeCheck): CheckDefinition {
  return defineCheck({
    id,
    name,
    issues: [
      {
        id: issue.id,
        name: issue.name,
        cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
        classifications: { owasp: issue.owasp },
      },
    ],
    oncePerScan: true,
    scanKinds: ['discover'],
    async run(ctx) {
      reportHits(ctx, issue.id, await probePaths(ctx, probes));
    },
  });
}
