import { expect } from 'chai';
import { listenForCallbacks } from '../../../checks/support/callback-server.js';

describe('listenForCallbacks', () => {
  it('wakes a waiter as soon as a matching callback comes, and records who fetched which tag', async () => {
    const listener = await listenForCallbacks();
    try {
      // A wait longer than the test's timeout: only the callback can end it in time.
      const waiting = listener.waitFor((hit) => hit.tag === 'wanted', 60_000, new AbortController().signal);
      await fetch(listener.urlFor('other'));
      await fetch(listener.urlFor('wanted'), { headers: { 'user-agent': 'target/1' } });
      expect(await waiting).to.equal(true);
      expect(listener.hits().map((h) => [h.tag, h.userAgent])).to.deep.equal([
        ['other', 'node'],
        ['wanted', 'target/1'],
      ]);
    } finally {
      await listener.close();
    }
  });

  it('answers false after the wait when nothing matching came, and at once when the check is aborted', async () => {
    const listener = await listenForCallbacks();
    try {
      expect(await listener.waitFor(() => true, 50, new AbortController().signal)).to.equal(false);
      const controller = new AbortController();
      const waiting = listener.waitFor(() => true, 60_000, controller.signal);
      controller.abort();
      expect(await waiting).to.equal(false);
    } finally {
      await listener.close();
    }
  });

  it('answers true at once for a callback that came before the wait began', async () => {
    const listener = await listenForCallbacks();
    try {
      await fetch(listener.urlFor('early'));
      expect(await listener.waitFor((hit) => hit.tag === 'early', 60_000, new AbortController().signal)).to.equal(true);
    } finally {
      await listener.close();
    }
  });
});
