/**
 * `npm start`'s own settings: each a flag and an environment variable (the flag wins). One declaration for the
 * parser, `npm start -- --help` and the README's table.
 */
import { DEMO } from './demo.js';

export interface StackSetting {
  flag: string;
  env: string;
  default: string;
  doc: string;
}

export const stackSettings = {
  port: {
    flag: '--port',
    env: 'PORT',
    default: String(DEMO.servicePort),
    doc: 'Registration service (public API) port; 0 picks a free one.',
  },
  internalPort: {
    flag: '--internal-port',
    env: 'INTERNAL_PORT',
    default: `${DEMO.internalPort} (0 with --port 0)`,
    doc: 'Reviewer/admin surface and review console port; 0 picks a free one.',
  },
  idpPort: {
    flag: '--idp-port',
    env: 'IDP_PORT',
    default: String(DEMO.idpPort),
    doc: 'Stub identity provider port; 0 picks a free one.',
  },
  logLevel: {
    flag: '--log-level',
    env: 'LOG_LEVEL',
    default: 'warn',
    doc: "What the terminal shows besides the tour: `warn` warnings and errors (repeats counted, one line a minute); `debug` adds the service's start/stop details and one access line per request. Short lines on a terminal, JSON lines otherwise.",
  },
} satisfies Record<string, StackSetting>;

export type StackSettingName = keyof typeof stackSettings;

export function stackSettingsTable(): string {
  const rows = Object.values(stackSettings).map((s) => `| \`${s.flag}\` | \`${s.env}\` | ${s.default} | ${s.doc} |`);
  return ['| Flag | Environment | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function stackHelp(): string {
  const rows = Object.values(stackSettings).map(
    (s) => `  ${`${s.flag} <value>`.padEnd(24)} ${s.env.padEnd(14)} ${s.doc} [default: ${s.default}]`,
  );
  return [
    'Usage: npm start [-- --port <n> --internal-port <n> --idp-port <n> --log-level <level>]',
    '',
    'Starts the stub identity provider and the registration service with demo data, prints the quick tour with the',
    'URLs it got, and stops both on Ctrl-C. Every flag also works as the environment variable beside it (a flag wins).',
    'MONGODB_URI (and every other registration-service setting in the environment) is passed to the service.',
    '',
    'Options:                 Environment',
    ...rows,
    '  -h, --help               show this help',
    '',
  ].join('\n');
}
