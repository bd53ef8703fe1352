/** The scanner's version, shown by `scanner --version` and in SARIF output. */
export const VERSION = '0.1.0';
