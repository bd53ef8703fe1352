/**
 * `npm start`'s own settings, declared once: each a flag and an environment variable (the flag wins). The parser,
 * `npm start -- --help` and the README's table come from here (lib/settings).
 */
import { LOG_LEVELS } from '../lib/logger.js';
import { defineSettings, type SettingsOf } from '../lib/settings/declaration.js';
import { renderHelp } from '../lib/settings/render-help.js';
import { DEMO } from './demo.js';

export const stackSettings = defineSettings({
  port: {
    type: 'port',
    flag: '--port',
    env: 'PORT',
    default: DEMO.servicePort,
    doc: 'Registration service (public API) port; 0 picks a free one.',
  },
  internalPort: {
    type: 'port',
    flag: '--internal-port',
    env: 'INTERNAL_PORT',
    default: (s) => (s.port === 0 ? 0 : DEMO.internalPort),
    defaultDoc: `${DEMO.internalPort} (0 with --port 0)`,
    doc: 'Reviewer/admin surface and review console port; 0 picks a free one.',
  },
  idpPort: {
    type: 'port',
    flag: '--idp-port',
    env: 'IDP_PORT',
    default: DEMO.idpPort,
    doc: 'Stub identity provider port; 0 picks a free one.',
  },
  logLevel: {
    type: 'enum',
    choices: LOG_LEVELS,
    flag: '--log-level',
    env: 'LOG_LEVEL',
    valueName: '<level>',
    default: 'warn',
    doc: "What the terminal shows besides the tour: `warn` warnings and errors (repeats counted, one line a minute); `debug` adds the service's start/stop details and one access line per request. Short lines on a terminal, JSON lines otherwise.",
  },
});

export type StackConfig = SettingsOf<typeof stackSettings.settings>;

export function stackHelp(): string {
  return [
    'Usage: npm start [-- <options>]',
    '',
    'Starts the stub identity provider and the registration service with demo data, prints the quick tour with the',
    'URLs it got, and stops both on Ctrl-C. Every flag also works as the environment variable in brackets (a flag',
    'wins). MONGODB_URI (and every other registration-service setting in the environment) is passed to the service.',
    '',
    renderHelp(stackSettings.settings, { heading: 'Options:' }),
    '',
  ].join('\n');
}
