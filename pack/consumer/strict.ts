// A strict TypeScript consumer (tsconfig.json beside it): the types of each entry point, as a user's code reads them.
import { createIdp, type RunningIdp, type MintedToken, type IdpOptions } from 'gatehouse/idp';
import { defineCheck, defineOption, type CheckContext, type Operation, type Report } from 'gatehouse/scanner';
import {
  createApp,
  createMemoryStore,
  serviceConfig,
  silentLogger,
  type ApiDeps,
  type ServiceConfig,
  type ServiceOptions,
} from 'gatehouse/service';

const options: IdpOptions = { port: 0, enableTestingApi: true, accessTokenFormat: 'jwt' };

export async function mint(): Promise<MintedToken> {
  const idp: RunningIdp = await createIdp(options);
  try {
    return await idp.testing!.mintToken({ claims: { sub: 'alice' } });
  } finally {
    await idp.close();
  }
}

const header = defineOption({
  name: 'versionHeader',
  type: 'string',
  flag: '--version-header',
  doc: 'header name',
  default: 'X-Api-Version',
});

export default defineCheck({
  id: 'custom.version_header',
  name: 'API version header',
  issues: [
    {
      id: 'custom.version_header_missing',
      name: 'No API version header',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
    },
  ],
  maxCvss: 0,
  options: [header],
  appliesTo: (operation: Operation) => (operation.method === 'GET' ? true : 'only GET operations'),
  async run(ctx: CheckContext<{ readonly versionHeader: string }>) {
    const response = await ctx.http.send();
    const name: string = ctx.options.versionHeader;
    if (!(name.toLowerCase() in response.headers)) ctx.report('custom.version_header_missing', { attempt: response });
  },
});

export function failedIssues(report: Report): number {
  return report.reports.flatMap((item) => item.issues).filter((issue) => issue.status === 'failed').length;
}

const settings: ServiceOptions = { cursorSecret: 'a-cursor-secret-of-at-least-32-characters!' };

export function app(): ReturnType<typeof createApp> {
  const config: ServiceConfig = serviceConfig(settings);
  const deps: ApiDeps = { config, store: createMemoryStore(), logger: silentLogger, clock: () => new Date() };
  return createApp(deps);
}
