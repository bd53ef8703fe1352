/** An organization: the tenant every resource lives under (docs/architecture.md §1.3). */

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  createdAt: Date;
}
