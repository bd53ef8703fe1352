/**
 * Policy profiles an operator declares in the seed file (`policyProfiles`), beside the built-in ones, so a secret
 * lifetime or a narrower profile needs no code change. A declaration may start from a built-in profile (`basedOn`)
 * and override what it names; the result is checked like the built-ins (policy-profile.schema.json). They live in
 * the process, as the seed file that declares them is read at every start: every instance behind one load balancer
 * needs the same seed file (like CURSOR_SECRET), or a registration under a declared profile reads as having an
 * unknown profile on the others.
 */
import { toFieldErrors, validatorFor } from '../../../lib/json-schema.js';
import { deepFreeze } from '../../../lib/deep-freeze.js';
import { PLANS, type Plan } from '../organizations/organizations.model.js';
import type { ClientType } from '../registrations/registrations.model.js';
import type { PolicyProfile, PolicyProfileConstraints } from './policy-profiles.model.js';

const PROFILE_SCHEMA = 'https://gatehouse.dev/schemas/api/policy-profile.schema.json';

/** A `policyProfiles` entry of the seed file. */
export interface PolicyProfileDeclaration {
  id: string;
  name: string;
  description?: string;
  /** A built-in profile this one starts from: what the declaration does not name is taken from it. */
  basedOn?: string;
  appliesTo?: ClientType[];
  constraints?: Partial<PolicyProfileConstraints>;
  /** The plans that may use it; default: those offering `basedOn`, or every plan. */
  plans?: Plan[];
}

export interface Declared {
  profile: Readonly<PolicyProfile>;
  plans: readonly Plan[];
}

let declared = new Map<string, Declared>();

/**
 * The profile a declaration makes, or the problems with it (each naming what to fix). `builtIn` finds the
 * built-in profiles (`basedOn`) and `builtInPlans` the plans offering one.
 */
export function resolveDeclaration(
  declaration: PolicyProfileDeclaration,
  builtIn: (id: string) => Readonly<PolicyProfile> | undefined,
  builtInPlans: (id: string) => readonly Plan[],
): { ok: true; declared: Declared } | { ok: false; problems: string[] } {
  if (builtIn(declaration.id))
    return { ok: false, problems: [`id ${declaration.id} is a built-in policy profile; choose another id`] };
  const base = declaration.basedOn === undefined ? undefined : builtIn(declaration.basedOn);
  if (declaration.basedOn !== undefined && !base)
    return { ok: false, problems: [`basedOn ${declaration.basedOn} is not a built-in policy profile`] };
  const profile = {
    id: declaration.id,
    name: declaration.name,
    description: declaration.description ?? base?.description ?? '',
    appliesTo: declaration.appliesTo ?? base?.appliesTo,
    constraints: { ...base?.constraints, ...declaration.constraints },
  };
  const check = validatorFor(PROFILE_SCHEMA);
  if (!check(profile)) {
    const hint = base ? '' : ' (or start from a built-in profile with basedOn)';
    return { ok: false, problems: toFieldErrors(check.errors).map((e) => `${e.path || '(root)'} ${e.message}${hint}`) };
  }
  const plans = declaration.plans ?? (base ? builtInPlans(base.id) : PLANS);
  return { ok: true, declared: { profile: deepFreeze(profile as PolicyProfile), plans: [...plans] } };
}

/** Replaces the declared profiles (a start applies its seed file's; an empty list removes them). */
export function declarePolicyProfiles(profiles: readonly Declared[]): void {
  declared = new Map(profiles.map((entry) => [entry.profile.id, entry]));
}

export function declaredPolicyProfile(id: unknown): Readonly<PolicyProfile> | undefined {
  return typeof id === 'string' ? declared.get(id)?.profile : undefined;
}

/** The declared profiles the plan may use, by id. */
export function declaredPolicyProfilesOn(plan: Plan): Readonly<PolicyProfile>[] {
  return [...declared.values()]
    .filter((entry) => entry.plans.includes(plan))
    .map((entry) => entry.profile)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Every declared profile, by id. */
export function listDeclaredPolicyProfiles(): Readonly<PolicyProfile>[] {
  return [...declared.values()].map((entry) => entry.profile).sort((a, b) => (a.id < b.id ? -1 : 1));
}
