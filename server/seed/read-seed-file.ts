/**
 * Reads a SEED_FILE (YAML or JSON, docs/architecture.md §1.1b) and checks it whole: the JSON Schema, then the
 * references between entries. Every problem is listed in one SeedFileError; nothing is applied on error.
 */
import { readFile } from 'node:fs/promises';
import { load } from 'js-yaml';
import { ajv, loadSchemas, toFieldErrors } from '../../lib/json-schema.js';
import { POLICY_PROFILES } from '../components/policy-profiles/policy-profiles.data.js';
import {
  resolveDeclaration,
  type PolicyProfileDeclaration,
} from '../components/policy-profiles/declared-policy-profiles.js';
import { planFor } from '../plans.js';
import { PLANS, type Plan } from '../components/organizations/organizations.model.js';
import type { GrantRole } from '../components/grants/grants.model.js';
import type {
  ApplicationType,
  ClientType,
  RegistrationConfig,
  RegistrationStatus,
} from '../components/registrations/registrations.model.js';
import { derivedId } from './derived-id.js';
import seedFileSchema from './seed-file.schema.json' with { type: 'json' };

interface SeedOrganization {
  id?: string;
  name: string;
  plan: Plan;
}
interface SeedGrant {
  organizationId: string;
  subject: string;
  default?: boolean;
  role?: GrantRole;
}
export interface SeedRegistration {
  id?: string;
  organizationId: string;
  name: string;
  description?: string;
  clientType: ClientType;
  applicationType: ApplicationType;
  policyProfileId: string;
  templateId?: string;
  status?: RegistrationStatus;
  clientId?: string;
  createdBy?: string;
  config: RegistrationConfig;
}
export interface SeedData {
  policyProfiles?: PolicyProfileDeclaration[];
  organizations?: SeedOrganization[];
  grants?: SeedGrant[];
  registrations?: SeedRegistration[];
}

export class SeedFileError extends Error {
  readonly problems: string[];
  constructor(file: string, problems: string[]) {
    super(`invalid seed file ${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SeedFileError';
    this.problems = problems;
  }
}

/** Statuses a reviewer reached by approving: the client exists at the authorization server, so it has an id. */
const APPROVED_STATUSES: readonly string[] = ['active', 'suspended', 'deprecated'];

let validate: ReturnType<typeof ajv.compile<SeedData>> | undefined;
function validator() {
  if (!validate) {
    loadSchemas();
    validate = ajv.getSchema<SeedData>(seedFileSchema.$id) ?? ajv.compile<SeedData>(seedFileSchema);
  }
  return validate;
}

const builtIn = (id: string) => POLICY_PROFILES.find((p) => p.id === id);
const plansOffering = (id: string) => PLANS.filter((plan) => planFor(plan).policyProfiles.includes(id));

/** The declared profiles resolved (declared-policy-profiles.ts), and the problems of those that are not valid. */
function checkProfiles(data: SeedData, problems: string[]): Set<string> {
  const ids = new Set(POLICY_PROFILES.map((p) => p.id));
  (data.policyProfiles ?? []).forEach((declaration, i) => {
    const at = `policyProfiles[${i}]`;
    if (ids.has(declaration.id) && !builtIn(declaration.id)) problems.push(`${at}.id ${declaration.id} appears twice`);
    const resolved = resolveDeclaration(declaration, builtIn, plansOffering);
    if (!resolved.ok) problems.push(...resolved.problems.map((problem) => `${at} ${problem}`));
    ids.add(declaration.id);
  });
  return ids;
}

/** The declared profiles of validated seed data, as declarePolicyProfiles takes them. */
export function declaredProfilesOf(data: SeedData) {
  return (data.policyProfiles ?? []).map((declaration) => {
    const resolved = resolveDeclaration(declaration, builtIn, plansOffering);
    if (!resolved.ok) throw new Error(`unchecked seed data: ${resolved.problems.join('; ')}`);
    return resolved.declared;
  });
}

/** Problems in references and uniqueness, with paths like `registrations[2].organizationId`. */
function crossCheck(data: SeedData, knownOrganizationIds: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  const profileIds = checkProfiles(data, problems);
  const orgIds = new Set(knownOrganizationIds);
  (data.organizations ?? []).forEach((o, i) => {
    const id = o.id ?? derivedId('org', o.name);
    if (orgIds.has(id) && !knownOrganizationIds.has(id))
      problems.push(`organizations[${i}] ${o.id ? `id ${id}` : `name ${o.name}`} appears twice`);
    orgIds.add(id);
  });
  const defaults = new Map<string, number>();
  (data.grants ?? []).forEach((g, i) => {
    if (!orgIds.has(g.organizationId))
      problems.push(`grants[${i}].organizationId ${g.organizationId} is not an organization of this file`);
    if (g.default) defaults.set(g.subject, (defaults.get(g.subject) ?? 0) + 1);
  });
  for (const [subject, count] of defaults)
    if (count > 1) problems.push(`grants: subject ${subject} has ${count} default organizations (at most one)`);
  const regIds = new Set<string>();
  const clientIds = new Set<string>();
  (data.registrations ?? []).forEach((r, i) => {
    const at = `registrations[${i}]`;
    if (!orgIds.has(r.organizationId))
      problems.push(`${at}.organizationId ${r.organizationId} is not an organization of this file`);
    if (r.id) {
      if (regIds.has(r.id)) problems.push(`${at}.id ${r.id} appears twice`);
      regIds.add(r.id);
    }
    if (!profileIds.has(r.policyProfileId))
      problems.push(
        `${at}.policyProfileId ${r.policyProfileId} is neither a built-in policy profile nor one this file declares`,
      );
    const status = r.status ?? 'draft';
    if (APPROVED_STATUSES.includes(status) && !r.clientId)
      problems.push(`${at}.clientId is required for status ${status}`);
    if (!APPROVED_STATUSES.includes(status) && r.clientId)
      problems.push(`${at}.clientId is only allowed for approved statuses (${APPROVED_STATUSES.join(', ')})`);
    if (r.clientId) {
      if (clientIds.has(r.clientId)) problems.push(`${at}.clientId ${r.clientId} appears twice`);
      clientIds.add(r.clientId);
    }
  });
  return problems;
}

/** Parses and validates seed text; `file` names it in messages and picks the parser (.json → JSON, else YAML). */
export function parseSeed(text: string, file: string): SeedData {
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : load(text);
  } catch (err) {
    throw new SeedFileError(file, [`cannot parse: ${(err as Error).message.split('\n')[0]}`]);
  }
  if (raw === undefined || raw === null) raw = {};
  const check = validator();
  if (!check(raw)) {
    throw new SeedFileError(
      file,
      toFieldErrors(check.errors).map((e) => `${e.path || '(root)'} ${e.message}`),
    );
  }
  const data = raw as SeedData;
  const problems = crossCheck(data);
  if (problems.length) throw new SeedFileError(file, problems);
  return data;
}

export async function readSeedFile(file: string): Promise<SeedData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new SeedFileError(file, [`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`]);
  }
  return parseSeed(text, file);
}
