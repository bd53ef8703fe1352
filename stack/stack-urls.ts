/** Where the running stack listens, and the audiences its tokens carry: what the tour, the state file and the demo data read. */
export interface StackUrls {
  idp: string;
  service: string;
  internal: string;
  audience: string;
  internalAudience: string;
}
