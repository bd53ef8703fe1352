/** The provider personalities by name, and which one an issuer has (`--personality name` or `tenant=name`). */
import { auth0 } from './auth0.js';
import { cognito } from './cognito.js';
import { entra } from './entra.js';
import { keycloak } from './keycloak.js';
import { okta } from './okta.js';
import type { Personality } from './personality.js';

export const PERSONALITIES: Readonly<Record<string, Personality>> = { auth0, entra, keycloak, okta, cognito };

/** What is wrong with `--personality` values given these tenants, or undefined. */
export function personalityProblem(values: readonly string[], tenants: readonly string[]): string | undefined {
  for (const value of values) {
    const [tenant, name] = value.includes('=') ? value.split('=', 2) : [undefined, value];
    if (!PERSONALITIES[name])
      return `names an unknown personality "${name}" (one of ${Object.keys(PERSONALITIES).join(', ')})`;
    if (tenant !== undefined && !tenants.includes(tenant)) return `names "${tenant}", which is not one of the tenants`;
  }
  const bare = values.filter((v) => !v.includes('='));
  return bare.length > 1 ? 'gives more than one personality for every issuer' : undefined;
}

/** The personality of one issuer (a tenant's own, else the one for every issuer), or undefined. */
export function personalityOf(values: readonly string[], tenant: string | undefined): Personality | undefined {
  const own = tenant === undefined ? undefined : values.find((v) => v.startsWith(`${tenant}=`));
  const name = own ? own.slice(tenant!.length + 1) : values.find((v) => !v.includes('='));
  return name ? PERSONALITIES[name] : undefined;
}
