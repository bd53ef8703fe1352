import { expect } from 'chai';
import { createSemaphore } from '../../scanner/semaphore.js';

describe('createSemaphore', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('serves waiting holders in arrival order, and one asking first ahead of them', async () => {
    const slots = createSemaphore(1);
    const release = await slots.acquire();
    const served: string[] = [];
    const later = (name: string, options?: { first?: boolean }) =>
      slots.acquire(options).then((done) => {
        served.push(name);
        return done;
      });
    const a = later('a');
    const b = later('b');
    const resumed = later('resumed', { first: true });
    release();
    (await resumed)();
    (await a)();
    (await b)();
    expect(served).to.deep.equal(['resumed', 'a', 'b']);
  });

  it('frees one slot per holder however often its release is called', async () => {
    const slots = createSemaphore(1);
    const release = await slots.acquire();
    release();
    release();
    await slots.acquire();
    let second = false;
    void slots.acquire().then(() => (second = true));
    await settle();
    expect(second).to.equal(false);
  });
});
