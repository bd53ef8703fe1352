/**
 * The README's table of scanner commands, generated from the commands' own `--help` (the scanner's declarations:
 * cli.ts's command table, each command's usage and flags, the scan-wide flag table and the checks' options).
 */
import { commands, run } from '../../scanner/cli.js';

interface Section {
  title: string;
  flags: string[];
}

async function helpOf(group: string, sub: string): Promise<string> {
  let out = '';
  await run([group, sub, '--help'], {
    stdout: { write: (c: string) => (out += c) },
    stderr: { write: () => true },
    env: {},
    isTTY: false,
  });
  return out;
}

/** Usage line, first paragraph, and the flag names of each section ("Curl flags:", "Common flags:", its own). */
export function parseHelp(help: string): { usage: string; summary: string; sections: Section[] } {
  const [usageLine = '', ...rest] = help.split('\n');
  const body = rest.join('\n').trim();
  const summary = (body.split('\n\n')[0] ?? '').replace(/\s*\n\s*/g, ' ').trim();
  const sections: Section[] = [{ title: 'own', flags: [] }];
  for (const line of body.split('\n').slice(summary ? 1 : 0)) {
    const header = /^(\S[^:]*):$/.exec(line);
    if (header) sections.push({ title: header[1], flags: [] });
    // A flag entry starts at the usage column (`  -X, --request`, `      --scans`); wrapped doc lines start further in.
    else if (/^ {2}(?:-\w[, ]|(?: {4})?--)/.test(line)) {
      const flag = /--[a-z][\w-]*/.exec(line)?.[0];
      if (flag && flag !== '--help') sections.at(-1)!.flags.push(flag);
    }
  }
  return { usage: usageLine.replace(/^Usage:\s*/, ''), summary, sections: sections.filter((s) => s.flags.length > 0) };
}

function groupCell(section: Section): string {
  if (section.title === 'Common flags') return 'scan-wide flags (below)';
  if (section.title.startsWith('Check options')) return 'check options (below)';
  const flags = section.flags.map((f) => `\`${f}\``).join(' ');
  return section.title === 'own' ? flags : `${section.title.toLowerCase()}: ${flags}`;
}

export async function scannerCommandsTable(): Promise<string> {
  const rows: string[] = [];
  for (const [group, family] of Object.entries(commands)) {
    for (const sub of Object.keys(family)) {
      const { usage, summary, sections } = parseHelp(await helpOf(group, sub));
      const flags = sections.map(groupCell).join('; ') || '—';
      const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
      rows.push(`| \`${usage.replaceAll('|', '\\|')}\` | ${cell(summary)} | ${flags.replaceAll('|', '\\|')} |`);
    }
  }
  return ['| Command | What it does | Flags |', '|---|---|---|', ...rows].join('\n');
}
