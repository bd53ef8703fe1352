/**
 * Technology fingerprints read from response headers, written for this project (VulnAPI uses the Wappalyzer
 * database). Buckets and their JSON keys follow VulnAPI's fingerprint data (docs/architecture.md §R.17); names carry `:version`
 * when the header reveals one.
 */

export const FINGERPRINT_BUCKETS = [
  'certificate_authority',
  'hosting',
  'os',
  'softwares',
  'databases',
  'servers',
  'server_extensions',
  'auth_services',
  'cdns',
  'cache',
  'languages',
  'frameworks',
  'security_services',
] as const;
type FingerprintBucket = (typeof FINGERPRINT_BUCKETS)[number];
export type Fingerprint = Record<FingerprintBucket, { name: string }[]>;

interface Rule {
  header: string;
  /** Matched against the header value; group 1, when present, is the version. */
  pattern: RegExp;
  finds: { bucket: FingerprintBucket; name: string; versioned?: boolean }[];
}

const V = true;
const RULES: Rule[] = [
  { header: 'server', pattern: /\bnginx(?:\/([\d.]+))?/i, finds: [{ bucket: 'servers', name: 'Nginx', versioned: V }] },
  {
    header: 'server',
    pattern: /\bopenresty(?:\/([\d.]+))?/i,
    finds: [{ bucket: 'servers', name: 'OpenResty', versioned: V }],
  },
  {
    header: 'server',
    pattern: /\bApache(?:\/([\d.]+))?/i,
    finds: [{ bucket: 'servers', name: 'Apache HTTP Server', versioned: V }],
  },
  {
    header: 'server',
    pattern: /Microsoft-IIS(?:\/([\d.]+))?/i,
    finds: [
      { bucket: 'servers', name: 'IIS', versioned: V },
      { bucket: 'os', name: 'Windows Server' },
    ],
  },
  {
    header: 'server',
    pattern: /\bKestrel\b/i,
    finds: [
      { bucket: 'servers', name: 'Kestrel' },
      { bucket: 'frameworks', name: 'Microsoft ASP.NET' },
    ],
  },
  { header: 'server', pattern: /\bCaddy\b/i, finds: [{ bucket: 'servers', name: 'Caddy' }] },
  { header: 'server', pattern: /\benvoy\b/i, finds: [{ bucket: 'servers', name: 'Envoy' }] },
  {
    header: 'server',
    pattern: /\bJetty(?:\(([\d.]+)[^)]*\))?/i,
    finds: [
      { bucket: 'servers', name: 'Jetty', versioned: V },
      { bucket: 'languages', name: 'Java' },
    ],
  },
  {
    header: 'server',
    pattern: /\bgunicorn(?:\/([\d.]+))?/i,
    finds: [
      { bucket: 'servers', name: 'Gunicorn', versioned: V },
      { bucket: 'languages', name: 'Python' },
    ],
  },
  {
    header: 'server',
    pattern: /\buvicorn\b/i,
    finds: [
      { bucket: 'servers', name: 'uvicorn' },
      { bucket: 'languages', name: 'Python' },
    ],
  },
  {
    header: 'server',
    pattern: /\bWerkzeug(?:\/([\d.]+))?/i,
    finds: [
      { bucket: 'frameworks', name: 'Flask' },
      { bucket: 'server_extensions', name: 'Werkzeug', versioned: V },
      { bucket: 'languages', name: 'Python' },
    ],
  },
  { header: 'server', pattern: /\bPython\/([\d.]+)/i, finds: [{ bucket: 'languages', name: 'Python', versioned: V }] },
  { header: 'server', pattern: /\bPHP\/([\d.]+)/i, finds: [{ bucket: 'languages', name: 'PHP', versioned: V }] },
  {
    header: 'server',
    pattern: /\bOpenSSL(?:\/([\w.]+))?/i,
    finds: [{ bucket: 'server_extensions', name: 'OpenSSL', versioned: V }],
  },
  { header: 'server', pattern: /\bUbuntu\b/i, finds: [{ bucket: 'os', name: 'Ubuntu' }] },
  { header: 'server', pattern: /\bDebian\b/i, finds: [{ bucket: 'os', name: 'Debian' }] },
  { header: 'server', pattern: /\b(?:CentOS|Red Hat)\b/i, finds: [{ bucket: 'os', name: 'CentOS' }] },
  { header: 'server', pattern: /\bWin(?:32|64)\b/i, finds: [{ bucket: 'os', name: 'Windows Server' }] },
  { header: 'server', pattern: /^cloudflare$/i, finds: [{ bucket: 'cdns', name: 'Cloudflare' }] },
  { header: 'server', pattern: /^AmazonS3$/i, finds: [{ bucket: 'hosting', name: 'Amazon S3' }] },
  { header: 'server', pattern: /^Vercel$/i, finds: [{ bucket: 'hosting', name: 'Vercel' }] },
  { header: 'server', pattern: /^Netlify$/i, finds: [{ bucket: 'hosting', name: 'Netlify' }] },
  {
    header: 'x-powered-by',
    pattern: /\bExpress\b/i,
    finds: [
      { bucket: 'frameworks', name: 'Express' },
      { bucket: 'languages', name: 'Node.js' },
    ],
  },
  {
    header: 'x-powered-by',
    pattern: /\bNext\.js(?:\s+([\d.]+))?/i,
    finds: [
      { bucket: 'frameworks', name: 'Next.js', versioned: V },
      { bucket: 'frameworks', name: 'React' },
      { bucket: 'languages', name: 'Node.js' },
    ],
  },
  {
    header: 'x-powered-by',
    pattern: /\bNuxt\b/i,
    finds: [
      { bucket: 'frameworks', name: 'Nuxt.js' },
      { bucket: 'languages', name: 'Node.js' },
    ],
  },
  {
    header: 'x-powered-by',
    pattern: /\bPHP(?:\/([\d.]+)|\s+([\d.]+))?/i,
    finds: [{ bucket: 'languages', name: 'PHP', versioned: V }],
  },
  { header: 'x-powered-by', pattern: /\bASP\.NET\b/i, finds: [{ bucket: 'frameworks', name: 'Microsoft ASP.NET' }] },
  { header: 'x-powered-by', pattern: /\bServlet(?:\/([\d.]+))?/i, finds: [{ bucket: 'languages', name: 'Java' }] },
  { header: 'x-powered-by', pattern: /\bPlesk\b/i, finds: [{ bucket: 'hosting', name: 'Plesk' }] },
  {
    header: 'x-aspnet-version',
    pattern: /([\d.]+)/,
    finds: [{ bucket: 'frameworks', name: 'Microsoft ASP.NET', versioned: V }],
  },
  {
    header: 'x-aspnetmvc-version',
    pattern: /([\d.]+)/,
    finds: [{ bucket: 'frameworks', name: 'Microsoft ASP.NET MVC', versioned: V }],
  },
  {
    header: 'x-generator',
    pattern: /\bDrupal(?:\s+([\d.]+))?/i,
    finds: [
      { bucket: 'softwares', name: 'Drupal', versioned: V },
      { bucket: 'languages', name: 'PHP' },
    ],
  },
  { header: 'x-drupal-cache', pattern: /./, finds: [{ bucket: 'softwares', name: 'Drupal' }] },
  { header: 'x-varnish', pattern: /./, finds: [{ bucket: 'cache', name: 'Varnish' }] },
  { header: 'via', pattern: /\bvarnish\b/i, finds: [{ bucket: 'cache', name: 'Varnish' }] },
  { header: 'via', pattern: /\bvegur\b/i, finds: [{ bucket: 'hosting', name: 'Heroku' }] },
  { header: 'x-cache', pattern: /\bcloudfront\b/i, finds: [{ bucket: 'cdns', name: 'Amazon CloudFront' }] },
  { header: 'x-amz-cf-id', pattern: /./, finds: [{ bucket: 'cdns', name: 'Amazon CloudFront' }] },
  { header: 'cf-ray', pattern: /./, finds: [{ bucket: 'cdns', name: 'Cloudflare' }] },
  { header: 'cf-cache-status', pattern: /./, finds: [{ bucket: 'cdns', name: 'Cloudflare' }] },
  { header: 'x-fastly-request-id', pattern: /./, finds: [{ bucket: 'cdns', name: 'Fastly' }] },
  { header: 'x-served-by', pattern: /\bcache-/i, finds: [{ bucket: 'cdns', name: 'Fastly' }] },
  { header: 'x-vercel-id', pattern: /./, finds: [{ bucket: 'hosting', name: 'Vercel' }] },
  { header: 'fly-request-id', pattern: /./, finds: [{ bucket: 'hosting', name: 'Fly.io' }] },
  { header: 'x-nf-request-id', pattern: /./, finds: [{ bucket: 'hosting', name: 'Netlify' }] },
  { header: 'platform', pattern: /\bhostinger\b/i, finds: [{ bucket: 'hosting', name: 'Hostinger' }] },
  { header: 'x-auth0-requestid', pattern: /./, finds: [{ bucket: 'auth_services', name: 'Auth0' }] },
  { header: 'x-kong-upstream-latency', pattern: /./, finds: [{ bucket: 'servers', name: 'Kong' }] },
  { header: 'x-sucuri-id', pattern: /./, finds: [{ bucket: 'security_services', name: 'Sucuri' }] },
  { header: 'x-cdn', pattern: /\bIncapsula\b/i, finds: [{ bucket: 'security_services', name: 'Imperva' }] },
];

function emptyFingerprint(): Fingerprint {
  return Object.fromEntries(FINGERPRINT_BUCKETS.map((b) => [b, []])) as unknown as Fingerprint;
}

/** Every technology the headers reveal, de-duplicated per bucket (a versioned name replaces the bare one). */
export function fingerprintHeaders(headers: Record<string, string>): Fingerprint {
  const result = emptyFingerprint();
  for (const rule of RULES) {
    const value = headers[rule.header];
    if (value === undefined) continue;
    const match = rule.pattern.exec(value);
    if (!match) continue;
    const version = match.slice(1).find((g) => g !== undefined);
    for (const find of rule.finds) {
      const name = find.versioned && version ? `${find.name}:${version}` : find.name;
      const bucket = result[find.bucket];
      const same = bucket.findIndex((app) => app.name.split(':')[0] === find.name);
      if (same < 0) bucket.push({ name });
      else if (!bucket[same].name.includes(':') && name.includes(':')) bucket[same] = { name };
    }
  }
  return result;
}
