/**
 * The READMEs' reference tables, generated from the code's own declarations (settings, error codes, checks),
 * never kept by hand. `npm run docs` writes them between `<!-- generated:NAME -->` markers; a test fails when a
 * README is out of date.
 */
import { idpErrorCodes } from '../../idp/errors.js';
import { idpSettings } from '../../idp/settings.js';
import { renderTable } from '../../lib/settings/render-table.js';
import type { SettingDeclaration } from '../../lib/settings/declaration.js';
import { collectOptions, optionSettings } from '../../scanner/check-options.js';
import { scanSettings } from '../../scanner/common-args.js';
import { loadChecks } from '../../scanner/loader.js';
import { serviceSettings } from '../../server/config.js';
import { errorCodes } from '../../server/errors.js';
import { migrateSettings } from '../../server/store/migrate-cli.js';
import { stackSettings } from '../settings.js';
import { scannerCommandsTable } from './scanner-commands.js';
import { readmeTour, readmeScanTour } from '../tour.js';

function errorCodeTable(): string {
  const rows = Object.entries(errorCodes).map(([code, { status, doc }]) => `| ${status} | \`${code}\` | ${doc} |`);
  return ['| Status | Code | When |', '|---|---|---|', ...rows].join('\n');
}

async function checksTable(): Promise<string> {
  const checks = await loadChecks({ includeBuiltIn: true });
  const rows = checks
    .map(({ definition: d }) => {
      const deps = d.dependsOn?.length ? d.dependsOn.map((x) => `\`${x}\``).join(', ') : '—';
      return `| \`${d.id}\` | ${d.name} | ${d.maxCvss.toFixed(1)} | ${deps} |`;
    })
    .sort();
  return ['| Check | Name | Max CVSS 4.0 | Depends on |', '|---|---|---|---|', ...rows].join('\n');
}

/** The scan commands' flags: the scanner's scan-wide settings, then the built-in checks' declared options. */
async function scannerFlagsTable(): Promise<string> {
  const checks = await loadChecks({ includeBuiltIn: true });
  const declared = collectOptions(checks.map((c) => ({ definition: c.definition, shown: c.file }))).sort((a, b) =>
    a.declaration.flag < b.declaration.flag ? -1 : 1,
  );
  const readBy = new Map(declared.map((d) => [`check:${d.declaration.name}`, d.checks]));
  const options = Object.entries(optionSettings(declared)).map(([name, setting]): [string, SettingDeclaration] => [
    `check:${name}`,
    setting.secret ? { ...setting, doc: `${setting.doc}; a secret, redacted from the report` } : setting,
  ]);
  return renderTable({ ...scanSettings.settings, ...Object.fromEntries(options) }, [
    {
      title: 'Read by',
      cell: (key) =>
        readBy
          .get(key)
          ?.map((id) => `\`${id}\``)
          .join(', ') ?? 'scan-wide',
    },
  ]);
}

function idpErrorTable(): string {
  const rows = Object.entries(idpErrorCodes).map(([code, when]) => `| \`${code}\` | ${when} |`);
  return ['| Code | When |', '|---|---|', ...rows].join('\n');
}

/** The generated blocks of idp/README.md. */
export function idpReadmeSections(): Record<string, string> {
  return { 'idp-settings': renderTable(idpSettings.settings), 'idp-errors': idpErrorTable() };
}

export async function generatedSections(): Promise<Record<string, string>> {
  return {
    'service-settings': renderTable(serviceSettings.settings),
    'service-errors': errorCodeTable(),
    'migrate-settings': renderTable(migrateSettings.settings),
    'idp-settings': renderTable(idpSettings.settings),
    'scanner-checks': await checksTable(),
    'scanner-commands': await scannerCommandsTable(),
    'scanner-flags': await scannerFlagsTable(),
    'quick-tour': readmeTour(),
    'quick-tour-scan': readmeScanTour(),
    'stack-settings': renderTable(stackSettings.settings),
  };
}

/** Replaces every `<!-- generated:NAME -->…<!-- /generated:NAME -->` block; throws when a marker is missing. */
export function applySections(readme: string, sections: Record<string, string>): string {
  let out = readme;
  for (const [name, body] of Object.entries(sections)) {
    const pattern = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out)) throw new Error(`README.md has no <!-- generated:${name} --> block`);
    out = out.replace(pattern, (_m, open: string, close: string) => `${open}${body}\n${close}`);
  }
  return out;
}
