/**
 * Example custom check for `scanner scan curl … --checks-dir examples/checks`.
 *
 * A custom check is one module whose file name is its id; its default export is made with `defineCheck`. Inside
 * this repository it imports `scanner/api.ts`; outside it, import `defineCheck` from the installed package
 * (`gatehouse/dist/scanner/api.js`) or export the same object literal without it — the loader validates the data
 * against `schemas/check-meta.schema.json` either way, and refuses an id that clashes with a built-in check.
 *
 * Verdict: failed when the response advertises a backend version header (`X-Api-Version`, `X-Backend-Version`,
 * `X-Runtime-Version`) — CWE-200, version details help attackers pick known exploits. Passed otherwise.
 * It sends one request. A check that needs another check's facts lists it in `dependsOn` and reads `ctx.fact(id, key)`.
 * An option is one declaration in `options`: `--version-header` becomes a flag of every scan command (listed by
 * `--help` with this directory), and `ctx.options.versionHeader` is typed from it.
 */
import { defineCheck } from '../../scanner/api.js';

const VERSION_HEADERS = ['x-api-version', 'x-backend-version', 'x-runtime-version'];

export default defineCheck({
  id: 'custom.api_version_header',
  name: 'Backend Version Header Disclosure',
  issues: [
    {
      id: 'security_misconfiguration.backend_version_disclosed',
      name: 'Backend version disclosed in a response header',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: {
        owasp: 'API8:2023 Security Misconfiguration',
        cwe: 'CWE-200: Exposure of Sensitive Information to an Unauthorized Actor',
      },
    },
  ],
  options: [
    {
      name: 'versionHeader',
      type: 'string[]',
      flag: '--version-header',
      valueName: '<name>',
      doc: 'another response header that names a backend version',
    },
  ],
  async run(ctx) {
    const response = await ctx.http.send();
    const names = [...VERSION_HEADERS, ...(ctx.options.versionHeader ?? []).map((name) => name.toLowerCase())];
    const disclosed = names.filter((name) => response.headers[name] !== undefined);
    if (disclosed.length === 0) return;
    ctx.setFact('headers', disclosed);
    ctx.report('security_misconfiguration.backend_version_disclosed', {
      detail: disclosed.map((name) => `${name}: ${response.headers[name]}`).join('; '),
      attempt: response,
    });
  },
});
