import { expect } from 'chai';
import { createBackgroundRunner } from '../../lib/background-runner.js';

/** A pass that waits until released (`open`: every pass after that one runs through), counting the passes begun. */
function gatedPass() {
  let began = 0;
  let open = false;
  let release: () => void = () => undefined;
  const pass = async () => {
    began += 1;
    if (!open) await new Promise<void>((resolve) => (release = resolve));
    return 1;
  };
  return {
    pass,
    began: () => began,
    release: () => release(),
    open: () => {
      open = true;
      release();
    },
  };
}

describe('a background runner', () => {
  it('runs one pass at a time: a run asked for meanwhile makes the run in progress go round once more', async () => {
    const gate = gatedPass();
    const runner = createBackgroundRunner(gate.pass, () => undefined);
    const first = runner.runDue();
    const second = runner.runDue();
    const third = runner.runDue();
    expect(second).to.equal(first);
    expect(third).to.equal(first);
    expect(gate.began()).to.equal(1);
    gate.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.began(), 'one more pass for the two asked for meanwhile').to.equal(2);
    gate.release();
    expect(await first).to.equal(2);
  });

  it('hands a failed run to its error handler when kicked, and runs again afterwards', async () => {
    const failures: unknown[] = [];
    let calls = 0;
    const runner = createBackgroundRunner(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return 3;
      },
      (error) => failures.push(error),
    );
    runner.kick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures.map((error) => (error as Error).message)).to.deep.equal(['database down']);
    expect(await runner.runDue()).to.equal(3);
  });

  it('runs every interval once started, and stop waits for the run in progress', async () => {
    const gate = gatedPass();
    const runner = createBackgroundRunner(gate.pass, () => undefined);
    runner.start(5);
    while (gate.began() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped, 'stopped while a pass was still running').to.equal(false);
    gate.open();
    await stopping;
    const begun = gate.began();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(gate.began(), 'no pass once stopped').to.equal(begun);
  });
});
