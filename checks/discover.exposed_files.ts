/**
 * discover.exposed_files — files that should never be served are (Info): source control metadata, environment and
 * credential files, dumps and backups, CI and container configuration, debug pages.
 * Requests: 1 control + one GET per path below, without credential. Verdict: failed when any path is a hit: a 200
 * whose body has the file's own format (a `.env` has KEY=value lines, `.git/HEAD` starts with `ref:`, …), so a
 * catch-all page is never a hit. Publishes the fact `urls`.
 * Differs from VulnAPI (docs/architecture.md §R.13 #18, §R.16): a curated list of 84 paths, each with a format check, instead of
 * 1 067 paths judged on the status alone. Env files are tried under the names projects give them per environment and
 * as backups (.env.dev, .env.staging, .env.bak…), each judged as a dotenv body (mostly KEY=value lines).
 */
import type { ProbeResponse } from '../scanner/api.js';
import { isHtml, jsonObject, jsonWith, textLike, type PathProbe } from './support/probe-paths.js';
import { definePathProbeCheck } from './support/path-probe-check.js';

/**
 * A dotenv body: mostly `KEY=value` lines (comments and blank lines aside), neither HTML nor JSON — so a page that
 * merely contains `A=b` somewhere, a JSON error or an SPA fallback is never taken for an env file.
 */
const ENV_LINE = /^\s*(export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*=/;
function dotenv(r: ProbeResponse): boolean {
  if (isHtml(r) || jsonObject(r.body) !== undefined) return false;
  const lines = r.body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const pairs = lines.filter((l) => ENV_LINE.test(l));
  return (
    pairs.length > 0 &&
    pairs.some((l) => /^\s*(export\s+)?[A-Z][A-Z0-9_]*\s*=/.test(l)) &&
    pairs.length >= lines.length * 0.6
  );
}
/** Java `.properties`: `key=value` / `key: value` lines with dotted lower-case keys (spring.datasource.password=…). */
const properties = textLike(/^\s*[a-z][\w-]*(\.[\w-]+)+\s*[=:]/m);
/** Names real projects give their env files: per environment, per machine, and editor or deploy backups. */
const ENV_FILES = [
  '.env',
  '.env.local',
  '.env.dev',
  '.env.development',
  '.env.development.local',
  '.env.test',
  '.env.staging',
  '.env.stage',
  '.env.prod',
  '.env.production',
  '.env.production.local',
  '.env.docker',
  '.env.backup',
  '.env.bak',
  '.env.old',
  '.env.orig',
  '.env.save',
  '.env~',
  '.env.example',
  'api/.env',
  'app/.env',
  'backend/.env',
  'config/.env',
];
const gitConfig = textLike(/^\s*\[(core|remote|branch)/m);
const yamlKeys = (...keys: string[]) => textLike(new RegExp(`^(${keys.join('|')})\\s*:`, 'm'));
const sqlDump = textLike(/\b(CREATE TABLE|INSERT INTO|DROP TABLE)\b/i);
const privateKey = textLike(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
const htpasswd = textLike(/^[^:\s]+:(\$apr1\$|\$2[aby]\$|\{SHA\}|[./0-9A-Za-z]{13}$)/m);
const xmlConfig = textLike(/<configuration[\s>]/i);
const phpinfo = (r: ProbeResponse): boolean => /phpinfo\(\)|PHP Version [\d.]+/.test(r.body);
const serverStatus = (r: ProbeResponse): boolean => /Apache Server (Status|Information)/i.test(r.body);
const dsStore = (r: ProbeResponse): boolean => r.body.includes('Bud1');
const npmrc = textLike(/(_authToken|registry\s*=|always-auth)/);
const awsCredentials = textLike(/aws_(access_key_id|secret_access_key)/i);
const dockerfile = textLike(/^\s*FROM\s+\S+/im);
const wpConfig = textLike(/DB_(PASSWORD|USER|NAME)/);
const springEnv = (r: ProbeResponse): boolean => jsonWith('propertySources')(r) || jsonWith('activeProfiles')(r);
const heapdump = (r: ProbeResponse): boolean => r.body.startsWith('JAVA PROFILE');
const shellHistory = textLike(/^(sudo |cd |ls|git |ssh |export |mysql )/m);
const composerOrPackage = (r: ProbeResponse): boolean =>
  jsonWith('name')(r) && /"(dependencies|require|version)"/.test(r.body);

const PROBES: PathProbe[] = [
  ...ENV_FILES.map((path) => ({ path, plausible: dotenv })),
  { path: '.flaskenv', plausible: dotenv },
  { path: '.git/HEAD', plausible: textLike(/^ref: refs\//) },
  { path: '.git/config', plausible: gitConfig },
  { path: '.gitconfig', plausible: textLike(/^\s*\[(user|core|alias)/m) },
  { path: '.svn/entries', plausible: textLike(/^\d+\s*$/m) },
  { path: '.hg/hgrc', plausible: textLike(/^\s*\[(paths|ui)\]/m) },
  { path: '.DS_Store', plausible: dsStore },
  { path: '.htpasswd', plausible: htpasswd },
  { path: '.htaccess', plausible: textLike(/^\s*(RewriteEngine|RewriteRule|Options|Deny|Allow|Require|AuthType)\b/im) },
  { path: '.npmrc', plausible: npmrc },
  { path: '.pypirc', plausible: textLike(/^\s*\[(distutils|pypi)\]/m) },
  { path: '.netrc', plausible: textLike(/^\s*machine\s+\S+/m) },
  { path: '.aws/credentials', plausible: awsCredentials },
  { path: '.docker/config.json', plausible: jsonWith('auths') },
  { path: '.ssh/id_rsa', plausible: privateKey },
  { path: '.ssh/id_ed25519', plausible: privateKey },
  { path: 'id_rsa', plausible: privateKey },
  { path: 'server.key', plausible: privateKey },
  { path: 'privkey.pem', plausible: privateKey },
  { path: '.bash_history', plausible: shellHistory },
  { path: '.zsh_history', plausible: shellHistory },
  { path: '.mysql_history', plausible: textLike(/\b(SELECT|INSERT|UPDATE|CREATE|GRANT)\b/i) },
  { path: 'docker-compose.yml', plausible: yamlKeys('services', 'version') },
  { path: 'docker-compose.yaml', plausible: yamlKeys('services', 'version') },
  { path: 'Dockerfile', plausible: dockerfile },
  { path: '.gitlab-ci.yml', plausible: yamlKeys('stages', 'image', 'variables', 'include') },
  { path: '.travis.yml', plausible: yamlKeys('language', 'script', 'dist', 'os') },
  { path: '.circleci/config.yml', plausible: yamlKeys('version', 'jobs', 'workflows') },
  { path: '.github/workflows/main.yml', plausible: yamlKeys('on', 'jobs', 'name') },
  { path: 'Jenkinsfile', plausible: textLike(/\b(pipeline|node)\s*\{/) },
  { path: 'bitbucket-pipelines.yml', plausible: yamlKeys('pipelines', 'image') },
  { path: 'package.json', plausible: composerOrPackage },
  { path: 'composer.json', plausible: composerOrPackage },
  { path: 'config.json', plausible: (r) => !isHtml(r) && /"(password|secret|api_?key|token)"\s*:/i.test(r.body) },
  { path: 'config.yml', plausible: textLike(/^\s*(password|secret|api_?key|token)\s*:/im) },
  { path: 'config/database.yml', plausible: textLike(/^\s*(adapter|database|username|password)\s*:/m) },
  { path: 'appsettings.json', plausible: jsonWith('ConnectionStrings') },
  { path: 'local.settings.json', plausible: jsonWith('Values') },
  {
    path: 'secrets.json',
    plausible: (r) => !isHtml(r) && /"[^"]*(password|secret|api_?key|token|private_?key)[^"]*"\s*:/i.test(r.body),
  },
  { path: 'application.properties', plausible: properties },
  { path: 'application.yml', plausible: yamlKeys('spring', 'server', 'management', 'datasource') },
  { path: 'config/secrets.yml', plausible: textLike(/^\s*secret_key_base\s*:/m) },
  { path: 'settings.py', plausible: textLike(/^\s*(SECRET_KEY|DATABASES)\s*=/m) },
  { path: '.s3cfg', plausible: textLike(/^\s*(access_key|secret_key)\s*=/m) },
  { path: 'web.config', plausible: xmlConfig },
  { path: 'wp-config.php.bak', plausible: wpConfig },
  { path: 'wp-config.php~', plausible: wpConfig },
  { path: 'backup.sql', plausible: sqlDump },
  { path: 'dump.sql', plausible: sqlDump },
  { path: 'database.sql', plausible: sqlDump },
  { path: 'db.sql', plausible: sqlDump },
  { path: 'phpinfo.php', plausible: phpinfo },
  { path: 'info.php', plausible: phpinfo },
  { path: 'server-status', plausible: serverStatus },
  { path: 'server-info', plausible: serverStatus },
  { path: 'actuator/env', plausible: springEnv },
  { path: 'actuator/heapdump', plausible: heapdump },
  { path: 'actuator/configprops', plausible: jsonWith('contexts') },
  { path: 'debug/pprof/', plausible: (r) => /Types of profiles available/i.test(r.body) },
  { path: 'debug/vars', plausible: jsonWith('cmdline', 'memstats') },
  { path: 'crossdomain.xml', plausible: textLike(/<allow-access-from\s+domain="\*"/i) },
];

export default definePathProbeCheck({
  id: 'discover.exposed_files',
  name: 'Discoverable exposed files',
  issue: {
    id: 'discover.exposed_files',
    name: 'Discoverable exposed files',
    owasp: 'API8:2023 Security Misconfiguration',
  },
  probes: PROBES,
});
