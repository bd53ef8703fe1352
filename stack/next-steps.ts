/** What `npm start` prints once the stack is up: where everything listens, then the README's quick tour with these URLs. */
import { DEMO } from './demo.js';
import type { StackUrls } from './stack-urls.js';
import { indent, quickTour, scanTour } from './tour.js';

export function nextSteps(urls: StackUrls): string {
  const api = `${urls.service}/api/v1`;
  return `
Gatehouse is running.
  identity provider     ${urls.idp}   (discovery: ${urls.idp}/.well-known/openid-configuration)
  registration service  ${api}   (OpenAPI: ${api}/openapi.json)
  reviewer surface      ${urls.internal}/internal/v1   (console: ${urls.internal}/console, signs in as ${DEMO.reviewer})
  token audience        ${urls.audience}
  internal audience     ${urls.internalAudience}
  demo organization     ${DEMO.organizationId} (pro plan; default organization of user "${DEMO.user}")

Quick tour (the README's), in a second terminal from the repository:

${indent(quickTour(urls))}

Then attack the service with its own scanner:

${indent(scanTour())}

Press Ctrl-C to stop both.
`;
}
