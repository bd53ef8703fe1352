import { expect } from 'chai';
import { nextSecrets, secretRequestProblem } from '../../idp/secret-rotation.js';

const NOW = 1_800_000_000;
const OLD = 'old-secret-0123456789';
const NEW = 'new-secret-0123456789';

describe('idp: the rules of a client secret rotation', () => {
  it('keeps the replaced secret until the overlap asked for, never past its own expiry', () => {
    expect(
      nextSecrets({ client_secret: OLD }, { client_secret: NEW, client_secret_previous_expires_at: NOW + 60 }, NOW),
    ).to.deep.equal({
      client_secret: NEW,
      client_secret_expires_at: 0,
      client_secret_previous: OLD,
      client_secret_previous_expires_at: NOW + 60,
    });
    const capped = nextSecrets(
      { client_secret: OLD, client_secret_expires_at: NOW + 10 },
      { client_secret: NEW, client_secret_previous_expires_at: NOW + 60 },
      NOW,
    );
    expect(capped.client_secret_previous_expires_at).to.equal(NOW + 10);
  });

  it('drops a previous secret once it expired, and one retired with a time not in the future', () => {
    const held = { client_secret: NEW, client_secret_previous: OLD, client_secret_previous_expires_at: NOW + 60 };
    expect(nextSecrets(held, {}, NOW + 61)).to.deep.equal({ client_secret: NEW, client_secret_expires_at: 0 });
    expect(nextSecrets(held, { client_secret_previous_expires_at: 0 }, NOW)).to.deep.equal({
      client_secret: NEW,
      client_secret_expires_at: 0,
    });
    expect(nextSecrets(held, { client_secret_previous_expires_at: NOW + 5 }, NOW)).to.include({
      client_secret_previous_expires_at: NOW + 5,
    });
  });

  it('treats the current secret sent back as no change, and keeps its lifetime', () => {
    const current = { client_secret: OLD, client_secret_expires_at: NOW + 100 };
    expect(nextSecrets(current, { client_secret: OLD }, NOW)).to.deep.equal(current);
  });

  it('gives a new secret no expiry unless the request sets one', () => {
    const current = { client_secret: OLD, client_secret_expires_at: NOW + 100 };
    expect(nextSecrets(current, { client_secret: NEW }, NOW).client_secret_expires_at).to.equal(0);
    expect(
      nextSecrets(current, { client_secret: NEW, client_secret_expires_at: NOW + 7 }, NOW).client_secret_expires_at,
    ).to.equal(NOW + 7);
  });

  it('names the field of a malformed request', () => {
    expect(secretRequestProblem({ client_secret: 42 })).to.match(/^client_secret must be 16 to 512/);
    expect(secretRequestProblem({ client_secret_expires_at: 1.5 })).to.match(/^client_secret_expires_at must/);
    expect(secretRequestProblem({ client_secret_previous_expires_at: -1 })).to.match(
      /^client_secret_previous_expires_at must/,
    );
    expect(secretRequestProblem({ client_secret: NEW, client_secret_expires_at: NOW })).to.equal(undefined);
  });
});
