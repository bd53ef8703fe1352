/**
 * The quick tour: one source for the commands `npm start` prints (with the URLs it got) and the README's
 * "Quick tour" block (with the default ports; `npm run docs` writes it, a test keeps both equal). Each comment
 * says what the command answers.
 */
import { DEMO, serviceUrl } from './demo.js';
import { DEMO_REGISTRATIONS as R } from './demo-registrations.js';

export interface TourUrls {
  /** The registration service's base URL (its API is under /api/v1). */
  service: string;
  /** The reviewer/admin listener's base URL. */
  internal: string;
}

const auth = '-H "Authorization: Bearer $TOKEN"';
const json = "-H 'content-type: application/json'";
const idOf = `node -pe 'JSON.parse(require("fs").readFileSync(0)).id'`;

export function quickTour(urls: TourUrls): string {
  const internalOrg = `${urls.internal}/internal/v1/organizations/${DEMO.organizationId}`;
  return [
    `TOKEN=$(npm run -s token)                       # alice's token: headless authorization code + PKCE at the IdP`,
    `ORG=${urls.service}/api/v1/organizations/${DEMO.organizationId}`,
    `curl -s ${auth} $ORG/capabilities          # plan, limits, scopes, policy, templates`,
    `curl -s ${auth} $ORG/registrations         # the demo's: "${R.draft}" (draft), "${R.pending}" (pending_review), "${R.active}" (active, a change set pending)`,
    '',
    `# create accepts an incomplete draft (201, status draft); the policy is checked on submit: 422 with every violation`,
    `SKETCH=$ORG/registrations/$(curl -s ${auth} ${json} \\`,
    `  -d '{"name":"Sketch","templateId":"tpl_spa","config":{"redirectUris":["http://sketch.example.com/cb"]}}' $ORG/registrations | ${idOf})`,
    `curl -s -X POST ${auth} $SKETCH/actions/submit      # 422 validation_failed: fields[] names config.redirectUris[0] (must use https)`,
    '',
    `# a valid draft from a template, submitted for review: 200, status pending_review`,
    `REG=$ORG/registrations/$(curl -s ${auth} ${json} \\`,
    `  -d '{"name":"Billing portal","templateId":"tpl_spa","config":{"redirectUris":["https://billing.example.com/cb"]}}' $ORG/registrations | ${idOf})`,
    `curl -s -X POST ${auth} $REG/actions/submit`,
    '',
    `# reviewer rita on the internal surface (its own port; the public API has no such route): the queue, then approve`,
    `REVIEWER=$(npm run -s token -- --reviewer)`,
    `curl -s -H "Authorization: Bearer $REVIEWER" ${urls.internal}/internal/v1/review-queue`,
    `curl -s -X POST -H "Authorization: Bearer $REVIEWER" ${json} -d '{"reason":"looks good"}' \\`,
    `  ${internalOrg}/registrations/\${REG##*/}/actions/approve      # 200, status active: a real client at the IdP (RFC 7591)`,
    '',
    `# alice proposes a change set against the active registration: 201, status pending_review, for rita to decide`,
    `curl -s ${auth} ${json} \\`,
    `  -d '{"changes":{"redirectUris":["https://billing.example.com/cb","https://billing.example.com/cb2"]}}' $REG/change-sets`,
  ].join('\n');
}

/** The tour's second block: the service attacked by its own scanner. */
export function scanTour(): string {
  return [
    `npm run scan:self                               # every operation of /api/v1/openapi.json as sam (an enterprise-plan organization: never throttled), bob as the other identity`,
    `npx scanner scan curl $ORG/registrations ${auth}`,
    `npx scanner scan curl $ORG/registrations ${auth} --scans 'jwt.*'   # only the JWT attacks (+ their dependencies)`,
  ].join('\n');
}

/** A block for the README, between its generated markers. */
function shBlock(text: string): string {
  return `\`\`\`sh\n${text}\n\`\`\``;
}

export function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((line) => (line ? `${by}${line}` : line))
    .join('\n');
}

/** The README's tour: the default ports of `npm start`. */
export const DEFAULT_TOUR_URLS: TourUrls = { service: serviceUrl(), internal: serviceUrl(DEMO.internalPort) };

export function readmeTour(): string {
  return shBlock(quickTour(DEFAULT_TOUR_URLS));
}

export function readmeScanTour(): string {
  return shBlock(scanTour());
}
