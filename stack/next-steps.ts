/** What `npm start` prints once the stack is up: how to get a token, call the API, and scan it. */
import { DEMO } from './demo.js';

export function nextSteps(urls: { idp: string; service: string; audience: string }): string {
  const api = `${urls.service}/api/v1`;
  return `
Gatehouse is running.
  identity provider     ${urls.idp}   (discovery: ${urls.idp}/.well-known/openid-configuration)
  registration service  ${api}   (OpenAPI: ${api}/openapi.json)
  token audience        ${urls.audience}
  demo organization     ${DEMO.organizationId} (pro plan; default organization of user "${DEMO.user}")

Next steps:
  1. A machine token (client credentials):
       TOKEN=$(curl -s -u ${DEMO.clientId}:${DEMO.clientSecret} -d grant_type=client_credentials -d 'scope=${DEMO.scopes.join(' ')}' -d resource=${urls.audience} ${urls.idp}/token | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')
     or a user token for "${DEMO.user}" through a headless authorization code + PKCE flow:
       TOKEN=$(npm run -s token)
  2. List the demo organization's registrations:
       curl -s -H "Authorization: Bearer $TOKEN" ${api}/organizations/${DEMO.organizationId}/registrations
  3. Scan every operation of the service's OpenAPI document with its own scanner:
       npm run scan:self
     or one endpoint:
       npx scanner scan curl ${api}/organizations/${DEMO.organizationId}/registrations -H "Authorization: Bearer $TOKEN"

Press Ctrl-C to stop both.
`;
}
