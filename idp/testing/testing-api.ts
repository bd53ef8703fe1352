/**
 * The testing surface of one issuer (docs/architecture.md §3.4) as an object: what `/_testing/*` calls over HTTP and what
 * `createIdp()` returns as `idp.testing`. Every operation acts at once, without a restart.
 */
import { exportJWK, generateKeyPair, calculateJwkThumbprint, type JWK } from 'jose';
import { approveDeviceCode, DeviceApprovalError } from '../device-flow.js';
import type { IssuerInstance } from '../issuer-instance.js';
import { keyAlgorithm, signingAlgorithms, type PrivateJwks } from '../keys.js';
import type { RequestRecord } from '../request-log.js';
import type { IdpConfig } from '../settings.js';
import { mintToken, MintError, type MintedToken, type MintRequest } from './mint.js';
import { FAULT_ENDPOINTS, type Fault, type NextLogin } from './testing-state.js';

export interface TestingApi {
  mintToken(request?: MintRequest): Promise<MintedToken>;
  /** The next `times` (default 1) logins are this identity, with these claims, without a page. */
  nextLogin(login: NextLogin): Promise<void>;
  /**
   * This user's claims (`roles`, `groups` …) and `scopes` from now on, until reset (a user not configured is added);
   * `scopes: null` lifts the limit. Takes effect at the user's next authorization.
   */
  setUser(user: UserChange): Promise<void>;
  /** Approves a pending device authorization (RFC 8628) as this user: the device's next poll gets its tokens. */
  approveDevice(approval: { userCode: string; sub: string }): Promise<{ scope: string }>;
  /** The next `times` (default 1) calls to the endpoint fail (or wait) as described. */
  fault(fault: Fault): void;
  /** A new signing key per algorithm becomes current; the old ones stay published until `retireKeys`. */
  rotateKeys(): Promise<{ current: string[]; published: string[] }>;
  /** Drops every key but the current ones from the JWKS (tokens they signed stop verifying). */
  retireKeys(): Promise<{ retired: string[]; published: string[] }>;
  setClock(offsetSeconds: number): void;
  readonly clockOffsetSeconds: number;
  /** What the issuer received (testing calls left out), after sequence number `since`. */
  requests(since?: number): RequestRecord[];
  /** Back to the start state: no faults, logins, offset or log; the start keys; no tokens, sessions or registrations. */
  reset(): Promise<void>;
}

export interface UserChange {
  sub: string;
  scopes?: readonly string[] | null;
  claims?: Record<string, unknown>;
}

export class TestingInputError extends Error {}

const isClaims = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

async function newKey(alg: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg.startsWith('RS') || alg.startsWith('PS') ? { modulusLength: 2048 } : {}),
  });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: 'sig' };
}

/** The current key of each algorithm: the first one with it (oidc-provider signs with the first match). */
function currentKeys(jwks: PrivateJwks): JWK[] {
  const seen = new Set<string>();
  return jwks.keys.filter((k) => {
    const alg = keyAlgorithm(k);
    if (seen.has(alg)) return false;
    seen.add(alg);
    return true;
  });
}

export function createTestingApi(
  instance: IssuerInstance,
  config: Pick<IdpConfig, 'accessTokenFormat' | 'defaultAudience' | 'scopes'>,
): TestingApi {
  const state = instance.testing!;
  const ready = () => {
    if (!instance.built)
      throw new TestingInputError('the identity provider is not ready yet (waiting for its database)');
    return instance.built;
  };

  return {
    async mintToken(request = {}) {
      try {
        return await mintToken(ready(), state.clock, config, request);
      } catch (error) {
        if (error instanceof MintError) throw new TestingInputError(error.message);
        throw error;
      }
    },
    async nextLogin(login) {
      if (typeof login?.sub !== 'string' || !login.sub.trim())
        throw new TestingInputError('sub must be a non-empty string');
      if (login.claims !== undefined && !isClaims(login.claims))
        throw new TestingInputError('claims must be an object');
      const times = login.times ?? 1;
      if (!Number.isInteger(times) || times < 1) throw new TestingInputError('times must be a positive integer');
      const built = ready();
      const known = new Set(Object.values(built.claims).flat());
      instance.accounts.override(login.sub, login.claims ?? {});
      state.logins.push({ ...login, remaining: times });
      // Claims the provider has never heard of are released with `profile` once it is rebuilt to know them.
      if (Object.keys(login.claims ?? {}).some((name) => name !== 'sub' && !known.has(name))) await instance.rebuild();
    },
    async setUser(change) {
      if (typeof change?.sub !== 'string' || !change.sub.trim())
        throw new TestingInputError('sub must be a non-empty string');
      if (change.claims !== undefined && !isClaims(change.claims))
        throw new TestingInputError('claims must be an object');
      const { scopes } = change;
      if (scopes !== undefined && scopes !== null) {
        if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string'))
          throw new TestingInputError('scopes must be a list of strings, or null for any');
        const unknown = scopes.filter((s) => !config.scopes.includes(s));
        if (unknown.length)
          throw new TestingInputError(`scopes names scopes the provider does not accept: ${unknown.join(', ')}`);
      }
      const built = ready();
      const known = new Set(Object.values(built.claims).flat());
      instance.accounts.override(change.sub, { ...change.claims, ...(scopes !== undefined ? { scopes } : {}) }, false);
      if (Object.keys(change.claims ?? {}).some((name) => name !== 'sub' && !known.has(name))) await instance.rebuild();
    },
    async approveDevice(approval) {
      if (typeof approval?.userCode !== 'string' || !approval.userCode.trim())
        throw new TestingInputError('userCode must be a non-empty string');
      if (typeof approval.sub !== 'string' || !approval.sub.trim())
        throw new TestingInputError('sub must be a non-empty string');
      const built = ready();
      const defaultResource = config.defaultAudience ?? (config.accessTokenFormat === 'jwt' ? built.issuer : undefined);
      try {
        return await approveDeviceCode(built.provider, instance.accounts, { ...approval, defaultResource });
      } catch (error) {
        if (error instanceof DeviceApprovalError) throw new TestingInputError(error.message);
        throw error;
      }
    },
    fault(fault) {
      if (!fault || !(fault.endpoint in FAULT_ENDPOINTS))
        throw new TestingInputError(`endpoint must be one of ${Object.keys(FAULT_ENDPOINTS).join(', ')}`);
      if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599))
        throw new TestingInputError('status must be an HTTP error status (400-599)');
      if (
        fault.delayMs !== undefined &&
        (!Number.isFinite(fault.delayMs) || fault.delayMs < 0 || fault.delayMs > 60000)
      )
        throw new TestingInputError('delayMs must be between 0 and 60000');
      if (fault.error !== undefined && !/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/.test(fault.error))
        throw new TestingInputError('error must be an OAuth error code');
      if (!fault.error && !fault.status && !fault.delayMs)
        throw new TestingInputError('a fault needs an error, a status or a delayMs');
      const times = fault.times ?? 1;
      if (!Number.isInteger(times) || times < 1) throw new TestingInputError('times must be a positive integer');
      state.faults.push({ ...fault, remaining: times });
    },
    async rotateKeys() {
      const jwks = ready().jwks;
      const fresh = await Promise.all(signingAlgorithms(jwks).map(newKey));
      const next = { keys: [...fresh, ...jwks.keys] };
      await instance.rebuild(next);
      return { current: fresh.map((k) => k.kid!), published: next.keys.map((k) => k.kid!) };
    },
    async retireKeys() {
      const jwks = ready().jwks;
      const keep = currentKeys(jwks);
      const retired = jwks.keys.filter((k) => !keep.includes(k)).map((k) => k.kid!);
      await instance.rebuild({ keys: keep });
      return { retired, published: keep.map((k) => k.kid!) };
    },
    setClock(offsetSeconds) {
      if (!Number.isFinite(offsetSeconds)) throw new TestingInputError('offsetSeconds must be a number');
      state.clock.offsetSeconds = offsetSeconds;
    },
    get clockOffsetSeconds() {
      return state.clock.offsetSeconds;
    },
    requests(since = 0) {
      return state.requests.filter((r) => r.seq > since);
    },
    async reset() {
      state.clear();
      instance.accounts.clearOverrides();
      await instance.store.clear?.();
      if (instance.built && instance.startJwks) await instance.rebuild(instance.startJwks);
    },
  };
}
