/**
 * The testing API's clock offset (docs/architecture.md §3.4). oidc-provider reads time through `Date.now()` (token iat/exp,
 * code, session and interaction expiry), so `Date.now` is wrapped once, and only inside an IdP's request (an
 * AsyncLocalStorage context) does it add that IdP's offset: other IdPs and the rest of the process keep real time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TestClock {
  offsetSeconds: number;
}

const context = new AsyncLocalStorage<TestClock>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const realNow = Date.now.bind(Date);
  Date.now = () => {
    const clock = context.getStore();
    return clock && clock.offsetSeconds ? realNow() + clock.offsetSeconds * 1000 : realNow();
  };
}

/** Runs `fn` (an IdP's request handling) with `clock`'s offset applied to Date.now. */
export function withClock<T>(clock: TestClock, fn: () => T): T {
  install();
  return context.run(clock, fn);
}

/** Now in seconds on the current context's clock (what oidc-provider sees). */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
