/** What `npm start` prints once the stack is up: how to get tokens, call the API, review, and scan it. */
import { DEMO } from './demo.js';

export interface StackUrls {
  idp: string;
  service: string;
  internal: string;
  audience: string;
  internalAudience: string;
}

export function nextSteps(urls: StackUrls): string {
  const api = `${urls.service}/api/v1`;
  const org = `${api}/organizations/${DEMO.organizationId}`;
  return `
Gatehouse is running.
  identity provider     ${urls.idp}   (discovery: ${urls.idp}/.well-known/openid-configuration)
  registration service  ${api}   (OpenAPI: ${api}/openapi.json)
  reviewer surface      ${urls.internal}/internal/v1   (console: ${urls.internal}/console)
  token audience        ${urls.audience}
  internal audience     ${urls.internalAudience}
  demo organization     ${DEMO.organizationId} (pro plan; default organization of user "${DEMO.user}")

Next steps:
  1. A machine token (client credentials):
       TOKEN=$(curl -s -u ${DEMO.clientId}:${DEMO.clientSecret} -d grant_type=client_credentials -d 'scope=${DEMO.scopes.join(' ')}' -d resource=${urls.audience} ${urls.idp}/token | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')
     or a user token for "${DEMO.user}" through a headless authorization code + PKCE flow:
       TOKEN=$(npm run -s token)
  2. List the demo organization's registrations:
       curl -s -H "Authorization: Bearer $TOKEN" ${org}/registrations
  3. Review: a token for reviewer "${DEMO.reviewer}" and the queue of pending submissions:
       REVIEWER=$(npm run -s token -- --reviewer)
       curl -s -H "Authorization: Bearer $REVIEWER" ${urls.internal}/internal/v1/review-queue
  4. Scan every operation of the service's OpenAPI document with its own scanner:
       npm run scan:self
     or one endpoint:
       npx scanner scan curl ${org}/registrations -H "Authorization: Bearer $TOKEN"

Press Ctrl-C to stop both.
`;
}
