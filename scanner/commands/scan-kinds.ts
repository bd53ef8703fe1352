/** The scan command of each kind a config file may name: its run function and the flags it parses besides the common ones. */
import type { CliIo } from '../cli-io.js';
import type { ConfigKind } from '../config/config-values.js';
import type { ArgOptions } from '../config/config-keys.js';

export interface ScanCommand {
  name: string;
  run(argv: string[], io: CliIo): Promise<number>;
  options: ArgOptions;
  help: string;
}

export async function scanCommand(kind: ConfigKind): Promise<ScanCommand> {
  if (kind === 'openapi') {
    const m = await import('./scan-openapi.js');
    return { name: 'scan openapi', run: m.scanOpenapi, options: m.scanOpenapiOptions, help: m.scanOpenapiHelp };
  }
  if (kind === 'graphql') {
    const m = await import('./scan-graphql.js');
    return { name: 'scan graphql', run: m.scanGraphql, options: m.scanGraphqlOptions, help: m.scanGraphqlHelp };
  }
  const [m, curl] = await Promise.all([import('./scan-curl.js'), import('../curl-args.js')]);
  return { name: 'scan curl', run: m.scanCurl, options: curl.curlOptions, help: m.scanCurlHelp };
}
