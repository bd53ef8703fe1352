/**
 * The scan runner's entry: `runScan` and the shapes it takes and gives. The runner itself lives in `scanner/engine/`
 * (`run-scan.ts` schedules, `run-task.ts` takes one check on one operation to its run).
 */
export { runScan, type ScanInput } from './engine/run-scan.js';
export type { CheckResult, ScanKind, ScanOutcome } from './scan-result.js';
