/**
 * The README's quick tour, copied verbatim from README.md into bash against a running `npm start` stack (a real
 * process). Only the stack's ports differ: the tour's 127.0.0.1:3000/3001 become the ports this run got.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { startStackProcess, type StackProcess } from '../support/stack-process.js';

const run = promisify(execFile);

async function tourScript(): Promise<string> {
  const readme = await readFile(fromRoot('README.md'), 'utf8');
  const tour = readme.indexOf('## Quick tour');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(tour));
  if (tour < 0 || !block) throw new Error('README.md has no "## Quick tour" with a sh block');
  return block[1];
}

/** curl prints each answer without a newline: split the concatenated JSON objects by brace depth. */
function jsonValues(text: string): Record<string, unknown>[] {
  const values: Record<string, unknown>[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (c === '}' && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
  }
  return values;
}

describe('the README quick tour', function () {
  this.timeout(120_000);
  let stack: StackProcess;

  before(async () => {
    stack = await startStackProcess();
  });
  after(async () => {
    if (stack) await stack.stop();
  });

  it('runs verbatim in bash: create, submit, approve on the internal surface, propose a change set', async () => {
    const script = (await tourScript())
      .replaceAll('http://127.0.0.1:3000', stack.service)
      .replaceAll('http://127.0.0.1:3001', stack.internal);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: fromRoot(),
      env: {
        ...process.env,
        API_AUTH_ISSUER: stack.idp,
        PUBLIC_BASE_URL: stack.service,
        API_AUTH_AUDIENCE: stack.audience,
        INTERNAL_AUTH_AUDIENCE: stack.internalAudience,
      },
      maxBuffer: 16 * 1024 * 1024,
    });
    const answers = jsonValues(stdout);
    const [capabilities, submitted, queue, approved, changeSet] = answers;
    expect(capabilities).to.include({ plan: 'pro' });
    expect(submitted).to.include({ status: 'pending_review' });
    expect(JSON.stringify(queue)).to.include(String(submitted.id));
    expect(approved).to.include({ status: 'active' });
    expect(changeSet).to.include({ status: 'pending_review', registrationId: submitted.id });
  });
});
