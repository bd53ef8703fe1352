/**
 * The OWASP API Security Top 10 2023 categories, exactly as OWASP names them: the only strings a check's
 * `classifications.owasp` may carry, plus the documented extras below (none yet).
 */
export const OWASP_API_TOP_10_2023 = [
  'API1:2023 Broken Object Level Authorization',
  'API2:2023 Broken Authentication',
  'API3:2023 Broken Object Property Level Authorization',
  'API4:2023 Unrestricted Resource Consumption',
  'API5:2023 Broken Function Level Authorization',
  'API6:2023 Unrestricted Access to Sensitive Business Flows',
  'API7:2023 Server Side Request Forgery',
  'API8:2023 Security Misconfiguration',
  'API9:2023 Improper Inventory Management',
  'API10:2023 Unsafe Consumption of APIs',
] as const;

/** Categories outside the ten that a check may use, each with the reason it needs one. */
export const DOCUMENTED_OWASP_EXTRAS: Readonly<Record<string, string>> = {};

export function isKnownOwaspCategory(category: string): boolean {
  return (OWASP_API_TOP_10_2023 as readonly string[]).includes(category) || category in DOCUMENTED_OWASP_EXTRAS;
}
