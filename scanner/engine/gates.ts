/**
 * The scheduling rules every check task passes, in order, before its check runs (run-task.ts): each one file in
 * `gates/`, each able to end the task with a result (a skip and its reason, a covered pass, an error). The order is
 * part of the behaviour — which reason a skipped check reports, and whether the waits can deadlock — so each row says
 * what it must come after.
 *
 * A new scheduling rule is a field of `CheckDefinition` (and of schemas/check-meta.schema.json), a gate file, a row
 * here, its line in scheduling-fields.ts and a test in test/scanner/engine/gates/.
 */
import type { Gate } from './gate.js';
import appliesTo from './gates/applies-to.js';
import canaryLost from './gates/canary-lost.js';
import concurrencySlot from './gates/concurrency-slot.js';
import credentialGap from './gates/credential-gap.js';
import dependsOn from './gates/depends-on.js';
import graphqlOperations from './gates/graphql-operations.js';
import interrupted from './gates/interrupted.js';
import passive from './gates/passive.js';
import repeatsRequests from './gates/repeats-requests.js';
import runsLast from './gates/runs-last.js';
import scanKinds from './gates/scan-kinds.js';
import sharedVerdict from './gates/shared-verdict.js';

export const GATES: readonly Gate[] = [
  // First: a check that does not run in this kind of scan waits for nothing and is not reported.
  scanKinds,
  // Like scanKinds, per operation: a GraphQL check on an operation it does not run on is not reported there either.
  graphqlOperations,
  // Before every other rule: a dependency that did not pass is the reason a dependent gives, and the facts later
  // rules read (a shared verdict's key) exist only once the dependencies ran.
  dependsOn,
  // A wait, so before the rules that look at the state of the scan (credential, canary): a credential lost while
  // this check waited stops it. Never waits for passive checks, nor for the checks downstream of this one: they
  // wait for it (a deadlock otherwise).
  runsLast,
  // The credential rules come after the waits, so what they see is the scan's state when the check would start;
  // a missing or empty credential (fixed by the user) is named before a lost one (the canary's).
  credentialGap,
  canaryLost,
  // Before appliesTo: the read-only rule overrides what the check itself says about the operation.
  repeatsRequests,
  appliesTo,
  // After appliesTo (an operation the check does not apply to gets no key and covers nothing) and after dependsOn
  // (the key reads the dependencies' facts). Waits for earlier operations' keys and verdicts.
  sharedVerdict,
  // The last wait, after every rule that can skip without waiting, so a skipped passive check holds nobody up.
  // Waits for every non-passive check on the operation, runsLast ones included (runsLast does not wait for passive
  // checks), and not for checks downstream of a passive one (they wait for it).
  passive,
  // After every wait: a task holding a slot while it waits for others would starve them (at --concurrency 1, a
  // deadlock). The gates below run holding the slot; the runner releases it whichever step ends the task.
  concurrencySlot,
  // Once the slot is taken, just before the check starts: a scan interrupted while the task queued starts no check.
  interrupted,
];
