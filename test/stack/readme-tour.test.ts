/**
 * The quick tour exactly as `npm start` prints it (the README carries the same text, see tour.test.ts), run in
 * bash against that real process: every comment's promise is checked on the answers.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { DEMO_REGISTRATIONS } from '../../stack/demo-registrations.js';
import { printedTour, startStackProcess, type StackProcess } from '../support/stack-process.js';

const run = promisify(execFile);

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

type Resource = {
  id: string;
  name: string;
  status: string;
  registrationId?: string;
  error?: { code: string; fields: { path: string }[] };
};

describe('the quick tour printed by npm start', function () {
  this.timeout(120_000);
  let stack: StackProcess;

  before(async () => {
    stack = await startStackProcess();
  });
  after(async () => {
    if (stack) await stack.stop();
  });

  it('runs verbatim in bash and every answer is what its comment says', async () => {
    // Only the stack's state file is passed: `npm run token` finds this stack's ports and audiences there.
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', printedTour(stack.output())], {
      cwd: fromRoot(),
      env: { ...process.env, GATEHOUSE_STACK_FILE: stack.stackFile },
      maxBuffer: 16 * 1024 * 1024,
    });
    const [capabilities, list, sketch, submitted, queue, approved, changeSet] = jsonValues(stdout) as unknown as [
      { plan: string },
      { data: Resource[] },
      Resource,
      Resource,
      { data: { registration?: Resource }[] },
      Resource,
      Resource,
    ];
    expect(capabilities).to.include({ plan: 'pro' });
    const byName = Object.fromEntries(list.data.map((r) => [r.name, r.status]));
    expect(byName).to.include({
      [DEMO_REGISTRATIONS.draft]: 'draft',
      [DEMO_REGISTRATIONS.pending]: 'pending_review',
      [DEMO_REGISTRATIONS.active]: 'active',
    });
    expect(sketch.error?.code).to.equal('validation_failed');
    expect(sketch.error?.fields.map((f) => f.path)).to.include('config.redirectUris[0]');
    expect(submitted).to.include({ name: 'Billing portal', status: 'pending_review' });
    expect(queue.data.map((item) => item.registration?.name)).to.include.members([
      DEMO_REGISTRATIONS.pending,
      'Billing portal',
    ]);
    expect(approved).to.include({ id: submitted.id, status: 'active' });
    expect(changeSet).to.include({ status: 'pending_review', registrationId: submitted.id });
  });

  it('seeds the active demo registration with a change set waiting for review', async () => {
    const { stdout } = await run('npm', ['run', '-s', 'token', '--', '--reviewer'], {
      cwd: fromRoot(),
      env: { ...process.env, GATEHOUSE_STACK_FILE: stack.stackFile },
    });
    const queue = (await (
      await fetch(`${stack.internal}/internal/v1/review-queue`, {
        headers: { authorization: `Bearer ${stdout.trim()}` },
      })
    ).json()) as {
      data: { kind: string; registration?: { name: string } }[];
    };
    const kinds = queue.data.map((item) => `${item.kind} ${item.registration?.name ?? ''}`.trim());
    expect(kinds).to.include(`change_set ${DEMO_REGISTRATIONS.active}`);
  });
});
