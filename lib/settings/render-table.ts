/**
 * The README's settings tables, generated from the declarations (never kept by hand): flag and variable columns when
 * the settings have them, the default, and the doc with its notes.
 */
import type { SettingDeclaration, SettingDeclarations } from './declaration.js';
import { defaultText, notesOf, usageOf } from './describe.js';

export interface TableColumn {
  title: string;
  cell: (key: string, setting: SettingDeclaration) => string;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
/** Notes after a doc: a sentence after a sentence, else a clause after a fragment (`…an exact id; repeatable`). */
const withNotes = (doc: string, notes: readonly string[]) =>
  notes.length === 0
    ? doc
    : /[.!?]$/.test(doc)
      ? `${doc} ${notes.join('; ').replace(/^./, (c) => c.toUpperCase())}.`
      : `${doc}; ${notes.join('; ')}`;
const code = (text: string) => `\`${text.replaceAll('|', '\\|')}\``;

/**
 * A Markdown table of every setting with a flag or a variable; `columns` are added at the end. The flag column is
 * there when most settings have a flag; otherwise the few flags are noted in their rows.
 */
export function renderTable(settings: SettingDeclarations, columns: readonly TableColumn[] = []): string {
  const entries = Object.entries(settings).filter(([, s]) => s.flag || s.env);
  const flags = entries.filter(([, s]) => s.flag).length * 2 >= entries.length;
  const env = entries.some(([, s]) => s.env);
  // Without a flag column, the first column names each setting by its variable, or by its flag when it has none.
  const titles = [
    ...(flags ? ['Flag', ...(env ? ['Environment'] : [])] : ['Setting']),
    'Default',
    'Meaning',
    ...columns.map((c) => c.title),
  ];
  const rows = entries.map(([key, s]) => {
    const shownDefault = defaultText(s);
    const notes = [
      ...(!flags && s.flag && s.env ? [`also the flag \`${usageOf(s)}\``] : []),
      ...notesOf(s, (name) => `\`${name}\``),
    ];
    const cells = [
      ...(flags
        ? [s.flag ? code(usageOf(s)) : '—', ...(env ? [s.env ? code(s.env) : '—'] : [])]
        : [code(s.env ?? usageOf(s))]),
      shownDefault === undefined
        ? s.required
          ? 'required'
          : '—'
        : s.defaultDoc !== undefined
          ? cell(shownDefault)
          : code(shownDefault),
      cell(withNotes(s.doc, notes)),
      ...columns.map((c) => c.cell(key, s)),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [`| ${titles.join(' | ')} |`, `|${titles.map(() => '---').join('|')}|`, ...rows].join('\n');
}
