/**
 * injection.path_traversal — an input naming a file reads files outside the folder it is meant for (CWE-22).
 * File-name-like inputs only: declared `format: path` (or `binary`, `uri-reference`), names such as file, filename,
 * path, template, download, document, attachment, folder, include, page, view, resource, report, log or lang, a
 * `name` whose value has a file extension, and any value that looks like a path (`a/b`, `report.pdf`). Read-only
 * operations and POSTs; never a write of a file, never a destructive operation.
 *
 * Requests per input, stopping at the first confirmed one: reads of a file whose content is known — `/etc/passwd`
 * (`root:…:0:0:`) through 1) `../` ×8, 2) the absolute path, 3) `..%2f` ×8 (decoded twice), 4) `....//` ×8 (a filter
 * that strips `../` once); `win.ini` (`[fonts]`) through 5) `..\` ×8 and 6) `C:\Windows\win.ini` — then
 * 7) `../` ×8 to a file that does not exist (`etc/gatehouse-<n>.txt`), whose resolved path `/etc/gatehouse-<n>.txt`
 * in the answer shows the traversal left the folder.
 * Confirmation: a read is repeated through the same way with another spelling of the same file (`etc/./passwd`), and
 * a control asks for a file beside it that does not exist (`passwd-gatehouse-<n>`), whose answer must not show the
 * content — the content depends on the path sent, it is not on every page. An error is confirmed with a second
 * missing file, and a control without `../` whose error must not show a path outside the folder.
 * Verdict: `injection.path_traversal` (8.7) for a read, `injection.path_traversal_error` (6.9) for a resolved path
 * outside the folder in an error; the evidence carries every exchange. Passed otherwise.
 */
import {
  defineCheck,
  describeInput,
  operationInputs,
  payloadRefusal,
  withInput,
  type CheckContext,
  type Operation,
  type OperationInput,
  type ProbeResponse,
} from '../scanner/api.js';
import { injectionTargets } from './support/injection-targets.js';
import { payloadNumber } from './support/payload-numbers.js';

const READ = 'injection.path_traversal';
const ERROR = 'injection.path_traversal_error';
const classifications = {
  owasp: 'API8:2023 Security Misconfiguration',
  cwe: "CWE-22: Improper Limitation of a Pathname to a Restricted Directory ('Path Traversal')",
};
const url = 'https://owasp.org/www-community/attacks/Path_Traversal';

const FILE_NAME =
  /(^|[_-]|[a-z](?=[A-Z]))(file|filename|filepath|path|template|tpl|download|document|doc|attachment|folder|dir|directory|include|page|view|resource|report|log|lang|locale|theme|layout)s?($|[_-]|[A-Z])/i;
const PATH_VALUE = /^[^\s?#]*\/[^\s?#]*$|^[\w.-]+\.[a-z0-9]{1,5}$/i;
const DEPTH = 8;

/** Whether an input names a file: by its declared format, its name, or a value that looks like a path. */
export function fileNameLike(input: OperationInput): boolean {
  if (['path', 'binary', 'uri-reference', 'filename'].includes(input.format ?? '')) return true;
  const value = typeof input.example === 'string' ? input.example : '';
  if (/^https?:/i.test(value)) return false;
  if (FILE_NAME.test(input.name)) return true;
  if (/^(name|filename|file_?name)$/i.test(input.name) && /\.[a-z0-9]{1,5}$/i.test(value)) return true;
  return PATH_VALUE.test(value);
}

interface KnownFile {
  system: string;
  /** The path from the root, with `/` (Windows ways turn it into `\`). */
  path: string;
  /** Another spelling of the same path. */
  again: string;
  /** A file beside it that does not exist. */
  missing: (n: number) => string;
  content: RegExp;
}

const PASSWD: KnownFile = {
  system: 'POSIX',
  path: 'etc/passwd',
  again: 'etc/./passwd',
  missing: (n) => `etc/passwd-gatehouse-${n}`,
  content: /root:[^:\n]*:0:0:/,
};
const WIN_INI: KnownFile = {
  system: 'Windows',
  path: 'windows/win.ini',
  again: 'windows/./win.ini',
  missing: (n) => `windows/win-gatehouse-${n}.ini`,
  content: /\[fonts\]|for 16-bit app support/i,
};

interface Way {
  name: string;
  file: KnownFile;
  spell: (path: string) => string;
}

const back = (step: string, path: string, separator = '/'): string =>
  `${step.repeat(DEPTH)}${path.split('/').join(separator)}`;

const WAYS: Way[] = [
  { name: '`../` sequences', file: PASSWD, spell: (p) => back('../', p) },
  { name: 'an absolute path', file: PASSWD, spell: (p) => `/${p}` },
  { name: 'encoded `..%2f` sequences', file: PASSWD, spell: (p) => back('..%2f', p, '%2f') },
  { name: '`....//` sequences (a filter that strips `../` once)', file: PASSWD, spell: (p) => back('....//', p) },
  { name: '`..\\` sequences', file: WIN_INI, spell: (p) => back('..\\', p, '\\') },
  { name: 'an absolute Windows path', file: WIN_INI, spell: (p) => `C:\\${p.split('/').join('\\')}` },
];

interface Proof {
  issue: string;
  detail: string;
  attempt: ProbeResponse;
  attempts: ProbeResponse[];
}

async function readProof(
  ctx: CheckContext,
  input: OperationInput,
  baseline: ProbeResponse,
  send: (value: string) => Promise<ProbeResponse>,
): Promise<Proof | undefined> {
  const n = payloadNumber(ctx.operation.id, describeInput(input), 'missing', 100_000, 999_999);
  for (const way of WAYS) {
    const { file } = way;
    if (file.content.test(baseline.body)) continue;
    const read = await send(way.spell(file.path));
    if (!file.content.test(read.body)) continue;
    const again = await send(way.spell(file.again));
    if (!file.content.test(again.body)) continue;
    const control = await send(way.spell(file.missing(n)));
    if (file.content.test(control.body)) return undefined; // every answer shows it: not the file that was asked for
    return {
      issue: READ,
      detail: `${describeInput(input)}: ${way.name} read /${file.path} (${file.system}; its content is in the answer), twice with two spellings ("${way.spell(file.path)}", "${way.spell(file.again)}"); a missing file beside it ("${way.spell(file.missing(n))}") did not show it`,
      attempt: again,
      attempts: [baseline, read, control],
    };
  }
  return undefined;
}

async function errorProof(
  ctx: CheckContext,
  input: OperationInput,
  baseline: ProbeResponse,
  send: (value: string) => Promise<ProbeResponse>,
): Promise<Proof | undefined> {
  const missing = (salt: string): string =>
    `gatehouse-${payloadNumber(ctx.operation.id, describeInput(input), salt, 100_000, 999_999)}.txt`;
  const [first, second, inside] = [missing('error-1'), missing('error-2'), missing('error-control')];
  const shows = (response: ProbeResponse, name: string): boolean =>
    response.body.includes(`/etc/${name}`) && !response.body.includes(`../etc/${name}`);
  const probe = await send(back('../', `etc/${first}`));
  if (!shows(probe, first)) return undefined;
  const again = await send(back('../', `etc/${second}`));
  if (!shows(again, second)) return undefined;
  // Without `../` the file is looked for in the folder: its error must not name /etc.
  const control = await send(inside);
  if (control.body.includes(`/etc/${inside}`)) return undefined;
  return {
    issue: ERROR,
    detail: `${describeInput(input)}: \`../\` sequences leave the folder: the answer names the resolved path /etc/${first}, and /etc/${second} for a second missing file; the same name without \`../\` is looked for elsewhere`,
    attempt: again,
    attempts: [baseline, probe, control],
  };
}

const targets = (operation: Operation): OperationInput[] => injectionTargets(operation, fileNameLike);

export default defineCheck({
  id: 'injection.path_traversal',
  name: 'Path Traversal',
  issues: [
    {
      id: READ,
      name: 'Path traversal reads files outside the intended folder',
      url,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N', score: 8.7 },
      classifications,
    },
    {
      id: ERROR,
      name: 'Path traversal resolves outside the intended folder (shown in an error)',
      url,
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N', score: 6.9 },
      classifications,
    },
  ],
  rerunsAsRaised: true,
  appliesTo: (operation) =>
    payloadRefusal(operation) ??
    (targets(operation).length > 0
      ? true
      : operationInputs(operation).length > 0
        ? 'no file-name-like input (file, path, template, download…, format: path, or a path value)'
        : 'no input'),
  async run(ctx) {
    const baseline = await ctx.http.send();
    for (const input of targets(ctx.operation)) {
      const send = (value: string): Promise<ProbeResponse> => ctx.http.send(withInput(ctx.operation, input, value));
      const proof = (await readProof(ctx, input, baseline, send)) ?? (await errorProof(ctx, input, baseline, send));
      if (proof) return ctx.report(proof.issue, proof);
    }
  },
});
