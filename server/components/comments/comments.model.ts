/** An internal comment on a registration: reviewers and admins only, never shown on the public API. */

export interface Comment {
  id: string;
  organizationId: string;
  registrationId: string;
  author: string;
  body: string;
  createdAt: Date;
}

export const MAX_COMMENT_LENGTH = 4000;
