/**
 * What the IdP needs from storage, whatever the runtime: an oidc-provider adapter for every model, a few
 * small state records (signing keys, cookie keys, the generated client) written once and shared by every
 * instance, a readiness ping, and close. Implemented in memory and on MongoDB (the edge worker adds D1).
 */
import type { AdapterFactory } from 'oidc-provider';

export interface IdpStore {
  readonly kind: 'memory' | 'mongodb' | 'd1';
  adapter: AdapterFactory;
  /** Stores `value` under `name` unless a value is already there; resolves to the stored value (the winner of a race). */
  initState<T>(name: string, value: T): Promise<T>;
  /** Replaces a state record (key rotation by the testing API); stores that lack it keep their first keys. */
  setState?<T>(name: string, value: T): Promise<void>;
  /** Deletes every oidc-provider record (the testing API's reset); state records stay. */
  clear?(): Promise<void>;
  /** Resolves when the database answers a trivial command; undefined when there is no database. */
  ping?: () => Promise<void>;
  close(): Promise<void>;
}
