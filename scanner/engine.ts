/**
 * The scan runner's entry: `runScan` (what it gives: scan-result.ts). The runner itself lives in `scanner/engine/`
 * (`run-scan.ts` schedules, `gates.ts` lists the scheduling rules a check passes before it runs).
 */
export { runScan } from './engine/run-scan.js';
