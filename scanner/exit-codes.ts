/** The scanner's exit codes (docs/architecture.md §2.2 and §2.6), named once for the CLI, scans and programmatic callers. */

/** The scan completed (whatever it found, unless a flag below asks otherwise). */
export const EXIT_OK = 0;
/** A fatal error: one readable line on stderr. */
export const EXIT_FATAL = 1;
/** Findings with --only-scans-above-threshold, so CI can tell "vulnerable" from "broken". */
export const EXIT_FINDINGS = 2;
/** An incomplete scan with --fail-on-incomplete. */
export const EXIT_INCOMPLETE = 3;
