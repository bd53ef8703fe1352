/**
 * The secure twin's account lockout: after 3 failed sign-ins in 15 minutes an account refuses every sign-in until
 * the window has passed, so passwords cannot be guessed one after another (the vulnerable twin has no limit).
 */
import { GraphQLError } from 'graphql';

const MAX_FAILURES = 3;
const WINDOW_MS = 15 * 60_000;

export interface SignInLockout {
  /** Throws the "account locked" error when the account is locked. */
  assertOpen(userId: string): void;
  failed(userId: string): void;
  succeeded(userId: string): void;
}

export function createSignInLockout(now: () => number = Date.now): SignInLockout {
  const failures = new Map<string, number[]>();
  const recent = (userId: string): number[] => (failures.get(userId) ?? []).filter((t) => now() - t < WINDOW_MS);
  return {
    assertOpen(userId) {
      if (recent(userId).length >= MAX_FAILURES)
        throw new GraphQLError('account locked: too many failed sign-ins, try again later', {
          extensions: { code: 'ACCOUNT_LOCKED' },
        });
    },
    failed: (userId) => void failures.set(userId, [...recent(userId), now()]),
    succeeded: (userId) => void failures.delete(userId),
  };
}
