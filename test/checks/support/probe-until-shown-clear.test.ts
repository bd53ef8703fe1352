import { expect } from 'chai';
import type { Operation } from '../../../scanner/api.js';
import { probeUntilShownClear } from '../../../checks/support/probe-until-shown-clear.js';

const on = (scanState: Map<string, unknown>, id: string) => ({ scanState, operation: { id } as Operation });

describe('probeUntilShownClear', () => {
  it('probes once when the first probe shows the key clear: the operations waiting on it send nothing', async () => {
    const state = new Map<string, unknown>();
    const probed: string[] = [];
    const probe = (id: string) => async () => {
      probed.push(id);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return true;
    };
    const results = await Promise.all(
      ['GET /a', 'POST /a', 'PUT /a'].map((id) => probeUntilShownClear(on(state, id), '/a', probe(id))),
    );
    expect(probed).to.deep.equal(['GET /a']);
    expect(results).to.deep.equal([undefined, 'GET /a', 'GET /a']);
  });

  it('lets every operation probe for itself when the first probe did not show the key clear', async () => {
    const state = new Map<string, unknown>();
    const probed: string[] = [];
    const results = await Promise.all(
      ['GET /a', 'POST /a'].map((id) =>
        probeUntilShownClear(on(state, id), '/a', async () => {
          probed.push(id);
          return false;
        }),
      ),
    );
    expect(probed).to.deep.equal(['GET /a', 'POST /a']);
    expect(results).to.deep.equal([undefined, undefined]);
  });

  it('keeps keys apart and lets a failed probe count as not clear', async () => {
    const state = new Map<string, unknown>();
    await probeUntilShownClear(on(state, 'GET /a'), '/a', () => Promise.reject(new Error('reset'))).catch(
      () => undefined,
    );
    let probedB = false;
    await probeUntilShownClear(on(state, 'GET /b'), '/b', async () => (probedB = true));
    let probedA = false;
    await probeUntilShownClear(on(state, 'POST /a'), '/a', async () => (probedA = true));
    expect([probedA, probedB]).to.deep.equal([true, true]);
  });
});
