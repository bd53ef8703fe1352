import { expect } from 'chai';
import { createRateLimiter, parseRate } from '../../scanner/rate-limiter.js';

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('scanner per-host rate limit', () => {
  it('parses --rate as n per second, minute or hour', () => {
    expect(parseRate('50/s')).to.deep.equal({ count: 50, perMs: 1000 });
    expect(parseRate('600/m')).to.deep.equal({ count: 600, perMs: 60_000 });
    expect(parseRate('10/h')).to.deep.equal({ count: 10, perMs: 3_600_000 });
    expect(parseRate('0/s')).to.equal(undefined);
    expect(parseRate('ten')).to.equal(undefined);
  });

  it('lets the first request to a host through and holds the next one, per host', async () => {
    const limiter = createRateLimiter({ count: 1, perMs: 60_000 });
    const controller = new AbortController();
    expect(await settled(limiter.acquire('a.test', controller.signal))).to.equal(true);
    const held = limiter.acquire('a.test', controller.signal);
    held.catch(() => {});
    expect(await settled(held)).to.equal(false);
    expect(await settled(limiter.acquire('b.test', controller.signal))).to.equal(true);
    controller.abort(new Error('done'));
    let reason = '';
    await held.catch((e: Error) => (reason = e.message));
    expect(reason).to.equal('done');
  });
});
