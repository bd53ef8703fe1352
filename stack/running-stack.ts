/**
 * The URLs `npm run token` and `npm run scan:self` talk to: the environment's (API_AUTH_ISSUER, PUBLIC_BASE_URL,
 * API_AUTH_AUDIENCE, INTERNAL_AUTH_AUDIENCE) first, then what the running `npm start` wrote to its state file,
 * then the default ports.
 */
import { audienceFor, DEMO, internalAudienceFor, serviceUrl } from './demo.js';
import type { StackUrls } from './stack-urls.js';
import { readStackFile, stackFile } from './state-file.js';

export function runningStack(env: Record<string, string | undefined> = process.env): StackUrls {
  const state = readStackFile(stackFile(env));
  const service = env.PUBLIC_BASE_URL ?? state?.service ?? serviceUrl();
  const internal = state?.internal ?? serviceUrl(DEMO.internalPort);
  return {
    idp: env.API_AUTH_ISSUER ?? state?.idp ?? `http://${DEMO.host}:${DEMO.idpPort}`,
    service,
    internal,
    audience: env.API_AUTH_AUDIENCE ?? state?.audience ?? audienceFor(service),
    internalAudience: env.INTERNAL_AUTH_AUDIENCE ?? state?.internalAudience ?? internalAudienceFor(internal),
  };
}
