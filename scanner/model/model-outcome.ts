/**
 * What the report says of the model after a scan: the identities (names, roles, what told the scan who each is, the
 * credentials it renewed — never a secret), the objects the scan created and what became of them (left behind ones
 * with the reason), the server errors grouped per operation with the inputs that caused them, and the fields of the
 * identities' own records set back after the checks.
 */
import { groupServerErrors, type ServerErrorGroup } from './server-errors.js';
import type { OwnRestore } from './restore-own-records.js';
import type { ScanModel } from './scan-model.js';

export interface ModelOutcome {
  identities: {
    name: string;
    role: string;
    /** Fields of its own record the scan learned, and from where (`username: login through POST /api/login`). */
    knownBy: Record<string, string>;
    /** How its credential was obtained, when the scanner obtained it itself. */
    credential?: string;
    renewals: { at: Date; reason: string; ok: boolean }[];
  }[];
  created: {
    resource: string;
    operation: string;
    creator: string;
    check?: string;
    keys: Record<string, string>;
    url?: string;
    state: 'present' | 'deleted' | 'left';
    reason?: string;
  }[];
  serverErrors: ServerErrorGroup[];
  /**
   * Fields of identities' own records set back after the checks and after a privilege chain (restore-own-records.ts,
   * follow-chains.ts).
   */
  ownRestores: OwnRestore[];
}

export function modelOutcome(model: ScanModel): ModelOutcome {
  return {
    identities: model.identities.map((identity) => ({
      name: identity.name,
      role: identity.role,
      knownBy: { ...identity.selfFrom },
      ...(identity.provider ? { credential: identity.provider.describe } : {}),
      renewals: [...(identity.provider?.renewals() ?? [])],
    })),
    created: model.created.all().map((object) => ({
      resource: object.resource,
      operation: object.operationId,
      creator: object.creator,
      ...(object.checkId ? { check: object.checkId } : {}),
      keys: { ...object.keys },
      ...(object.url ? { url: object.url } : {}),
      state: object.state,
      ...(object.reason ? { reason: object.reason } : {}),
    })),
    serverErrors: groupServerErrors(model.serverErrors.all()),
    ownRestores: model.ownRestores.map((r) => ({
      ...r,
      fields: [...r.fields],
      ...(r.was ? { was: { ...r.was } } : {}),
    })),
  };
}
