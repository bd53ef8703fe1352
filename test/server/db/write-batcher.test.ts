import { expect } from 'chai';
import { createWriteBatcher, type BatchWrite } from '../../../server/db/write-batcher.js';

/** A batch write the test completes by hand, recording each batch it was given. */
function heldWrites() {
  const batches: string[][] = [];
  const pending: { resolve: (outcomes?: unknown[]) => void; reject: (error: unknown) => void }[] = [];
  const write: BatchWrite<string> = (items) =>
    new Promise((resolve, reject) => {
      batches.push(items);
      pending.push({ resolve, reject });
    });
  return { write, batches, next: () => pending.shift()! };
}

/** Each write's outcome once settled: 'ok' or the error's message. */
const outcome = (promise: Promise<void>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('write batcher', () => {
  it('writes an item at once, alone, when no batch is being written', async () => {
    const held = heldWrites();
    const batcher = createWriteBatcher(held.write);
    const written = batcher.write('a');
    expect(held.batches).to.deep.equal([['a']]);
    held.next().resolve();
    expect(await outcome(written)).to.equal('ok');
  });

  it('gathers the items that arrive while a batch is written into the next batch', async () => {
    const held = heldWrites();
    const batcher = createWriteBatcher(held.write);
    const writes = ['a', 'b', 'c', 'd'].map((item) => batcher.write(item));
    expect(held.batches).to.deep.equal([['a']]);
    held.next().resolve();
    await tick();
    expect(held.batches).to.deep.equal([['a'], ['b', 'c', 'd']]);
    held.next().resolve();
    expect(await Promise.all(writes.map(outcome))).to.deep.equal(['ok', 'ok', 'ok', 'ok']);
  });

  it('fails only the items a batch reports, and resolves the others', async () => {
    const held = heldWrites();
    const batcher = createWriteBatcher(held.write);
    const first = outcome(batcher.write('a'));
    const writes = ['b', 'c', 'd'].map((item) => outcome(batcher.write(item)));
    held.next().resolve();
    await tick();
    held.next().resolve([undefined, new Error('c refused'), undefined]);
    expect(await first).to.equal('ok');
    expect(await Promise.all(writes)).to.deep.equal(['ok', 'c refused', 'ok']);
  });

  it('fails every item of a batch whose write throws, and writes the next batch after it', async () => {
    const held = heldWrites();
    const batcher = createWriteBatcher(held.write);
    const first = outcome(batcher.write('a'));
    const second = ['b', 'c'].map((item) => outcome(batcher.write(item)));
    held.next().reject(new Error('database gone'));
    await tick();
    expect(held.batches).to.deep.equal([['a'], ['b', 'c']]);
    held.next().resolve();
    expect(await first).to.equal('database gone');
    expect(await Promise.all(second)).to.deep.equal(['ok', 'ok']);
  });

  it('fails at once, unsent, the items queued behind a batch whose error says they would fail too', async () => {
    const held = heldWrites();
    const batcher = createWriteBatcher(held.write, { failsQueued: (error) => String(error).includes('unreachable') });
    const first = outcome(batcher.write('a'));
    const queued = ['b', 'c'].map((item) => outcome(batcher.write(item)));
    held.next().reject(new Error('database unreachable'));
    expect(await first).to.equal('database unreachable');
    expect(await Promise.all(queued)).to.deep.equal(['database unreachable', 'database unreachable']);
    expect(held.batches).to.deep.equal([['a']]);
  });

  it('writes at most maxBatch items per batch', async () => {
    const held = heldWrites();
    const batcher = createWriteBatcher(held.write, { maxBatch: 2 });
    const writes = ['a', 'b', 'c', 'd', 'e'].map((item) => batcher.write(item));
    for (let i = 0; i < 3; i += 1) {
      held.next().resolve();
      await tick();
    }
    expect(held.batches).to.deep.equal([['a'], ['b', 'c'], ['d', 'e']]);
    expect(await Promise.all(writes.map(outcome))).to.deep.equal(['ok', 'ok', 'ok', 'ok', 'ok']);
  });

  it('with a linger, gathers the items of that time into one batch before writing', async () => {
    const held = heldWrites();
    const batcher = createWriteBatcher(held.write, { lingerMs: 30 });
    const writes = [batcher.write('a')];
    await tick();
    writes.push(batcher.write('b'));
    expect(held.batches).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(held.batches).to.deep.equal([['a', 'b']]);
    held.next().resolve();
    expect(await Promise.all(writes.map(outcome))).to.deep.equal(['ok', 'ok']);
  });
});
