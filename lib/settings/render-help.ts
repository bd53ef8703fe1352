/**
 * `--help` sections from the declarations: the flag (or variable) in a column, the doc wrapped beside it with its
 * notes and default, and the variable a flag also reads in brackets (`[IDP_PORT]`).
 */
import type { SettingDeclaration, SettingDeclarations } from './declaration.js';
import { defaultText, notesOf, usageOf } from './describe.js';

const WIDTH = 118;
const MAX_COLUMN = 37;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** One entry: the usage, then the doc lines wrapped at the column (a long usage puts the doc on the next line). */
function helpEntry(usage: string, doc: readonly string[], column = MAX_COLUMN): string {
  const head = `  ${usage.startsWith('--') ? `    ${usage}` : usage}`;
  const pad = ' '.repeat(column);
  const lines = doc.flatMap((paragraph) => wrap(paragraph, WIDTH - column));
  const [first = '', ...rest] = lines;
  const top = head.length < column ? [`${head.padEnd(column)}${first}`] : [head, `${pad}${first}`];
  return [...top, ...rest.map((line) => `${pad}${line}`)].join('\n').trimEnd();
}

/** The doc of a setting with its notes, default and variable, as `--help` shows it. */
function helpDoc(setting: SettingDeclaration): string {
  const shownDefault = setting.type === 'boolean' && !setting.default ? undefined : defaultText(setting);
  const notes = [
    ...notesOf(setting),
    ...(shownDefault !== undefined ? [`default ${shownDefault.replaceAll('`', '')}`] : []),
  ];
  const variable = setting.flag && setting.env ? ` [${setting.env}]` : '';
  return `${setting.doc}${notes.length ? ` (${notes.join(', ')})` : ''}${variable}`;
}

export interface HelpOptions {
  /** The section's first line (`Options:`). */
  heading: string;
  /** More lines under a setting's doc (the checks that read an option). */
  more?: (key: string) => string[];
  /** Adds `-h, --help` at the end (default true when the settings have flags). */
  help?: boolean;
  column?: number;
}

/** A `--help` section listing every setting that has a flag or a variable, in declaration order. */
export function renderHelp(settings: SettingDeclarations, options: HelpOptions): string {
  const entries = Object.entries(settings).filter(([, s]) => s.flag || s.env);
  const withHelp = options.help ?? entries.some(([, s]) => s.flag);
  const lines = entries.map(([key, s]) =>
    helpEntry(usageOf(s), [helpDoc(s), ...(options.more?.(key) ?? [])], options.column),
  );
  if (withHelp) lines.push(helpEntry('-h, --help', ['Show this help.'], options.column));
  return `${options.heading}\n${lines.join('\n')}`;
}
