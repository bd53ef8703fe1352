/** Risk level from a CVSS 4.0 score, without VulnAPI's gaps at exactly 4.0 / 7.0 / 9.0 (docs/architecture.md §2.5). */

export type RiskLevel = 'Critical' | 'High' | 'Medium' | 'Low' | 'Info';

export function riskLevel(score: number): RiskLevel {
  if (score >= 9) return 'Critical';
  if (score >= 7) return 'High';
  if (score >= 4) return 'Medium';
  if (score > 0) return 'Low';
  return 'Info';
}

export function isHighRisk(score: number): boolean {
  return score >= 7;
}
