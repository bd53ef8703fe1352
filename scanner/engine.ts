/**
 * The scan runner's entry: `runScan` and the shapes it takes and gives. The runner itself lives in `scanner/engine/`
 * (`run-scan.ts` schedules, `gates.ts` lists the scheduling rules a check passes before it runs).
 */
export { runScan, type ScanInput } from './engine/run-scan.js';
export type { CheckResult, ScanKind, ScanOutcome } from './scan-result.js';
