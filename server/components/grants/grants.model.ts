/** An API-access grant: a token subject may act on an organization; at most one grant per subject is its default. */

export interface Grant {
  organizationId: string;
  subject: string;
  isDefault: boolean;
  createdAt: Date;
}
