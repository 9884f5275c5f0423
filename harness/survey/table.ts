/**
 * The survey's table as survey.json, Markdown (survey.md, docs/ecosystem.md) and one HTML page: a
 * row per server, a column per client profile and one more per profile that abandons a server
 * (`<profile>: abandon`), each cell linked to its evidence.
 */
import type { ProfileName } from '../client-profiles/profiles.js';
import type { Cell } from './cells.js';

export interface SurveyRow {
  id: string;
  registry: string;
  package: string;
  version: string;
  language: string;
  sdkDocumented: string;
  /** What the drill read from the program; null when no drill ran. */
  sdkRead: string | null;
  repository: string;
  issues: string[];
  use: { figure: string | null; source: string };
  /** The server's own words when no drill ran; else null. */
  notStarted: string | null;
  missingTools: string[];
  cells: Partial<Record<ProfileName, Cell>>;
  /** The abandon column's cells, of each profile in the table's `abandoning`. */
  abandoned?: Partial<Record<ProfileName, Cell>>;
  /** The maintainer's report, relative to the survey folder, when a cell found something. */
  report: string | null;
}

export interface SurveyTable {
  version: 1;
  catalog: string;
  profiles: ProfileName[];
  /** The profiles of `profiles` that abandon a server, each with an abandon column after the profiles' (cells.ts). */
  abandoning?: ProfileName[];
  rows: SurveyRow[];
}

interface Column {
  name: string;
  cell: (r: SurveyRow) => Cell | undefined;
  /** A column of a client that abandons the server: what it leaves is the client's doing, so no diagnosis of the server. */
  abandon: boolean;
}

function columnsOf(table: SurveyTable): Column[] {
  return [
    ...table.profiles.map((p) => ({ name: p, cell: (r: SurveyRow) => r.cells[p], abandon: false })),
    ...(table.abandoning ?? []).map((p) => ({ name: `${p}: abandon`, cell: (r: SurveyRow) => r.abandoned?.[p], abandon: true })),
  ];
}

const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function markOf(c: Cell): string {
  const marks = c.verify ? Object.values(c.verify) : [];
  return marks.length === 0 ? '' : marks.every((m) => m === 'verified') ? ' ✓' : ` (${marks.filter((m) => m !== 'verified').join(', ')})`;
}

/**
 * The table, each cell in its short words ("leaves 2", "no exit on EOF"); what each finding is
 * comes after it, in findingsMarkdown. `base` is how links are written: '' inside the survey
 * folder, a prefix from elsewhere; null for none (docs/ecosystem.md, whose repository keeps no
 * survey folder).
 */
export function tableMarkdown(table: SurveyTable, base: string | null = ''): string {
  const columns = columnsOf(table);
  const head = `| server | version | SDK read from the program | ${columns.map((c) => c.name).join(' | ')} |`;
  const rule = `| --- | --- | --- | ${columns.map(() => '---').join(' | ')} |`;
  const rows = table.rows.map((r) => {
    const name = r.report && base !== null ? `[${r.id}](${base}${r.report})` : r.id;
    const cells = columns.map((column) => {
      const c = column.cell(r);
      if (!c) return '';
      return (c.evidence && c.kind !== 'clean' && base !== null ? `[${esc(c.short)}](${base}${c.evidence})` : esc(c.short)) + markOf(c);
    });
    return `| ${name} | ${r.registry} ${esc(r.package)}@${r.version} | ${esc(r.sdkRead ?? `(documented) ${r.sdkDocumented}`)} | ${cells.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/** Each server's findings in full: every distinct cell text that is not clean, the columns that show it, its diagnosis, and why a server could not start. */
export function findingsMarkdown(table: SurveyTable, base: string | null = ''): string {
  const columns = columnsOf(table);
  const lines: string[] = [];
  for (const r of table.rows) {
    const byText = new Map<string, { cell: Cell; columns: string[]; abandon: boolean }>();
    for (const column of columns) {
      const c = column.cell(r);
      // A server that could not start says so once, not again for its abandon columns.
      if (!c || c.kind === 'clean' || (column.abandon && c.kind === 'could-not-start')) continue;
      const key = `${column.abandon}|${c.text}`;
      const seen = byText.get(key);
      if (seen) seen.columns.push(column.name);
      else byText.set(key, { cell: c, columns: [column.name], abandon: column.abandon });
    }
    if (byText.size === 0) continue;
    lines.push(`### ${r.id}`, '');
    for (const { cell, columns: names, abandon } of byText.values()) {
      const where = names.length === columns.filter((c) => c.abandon === abandon).length ? 'every column' : names.join(', ');
      const link = cell.evidence && base !== null ? ` ([evidence](${base}${cell.evidence}))` : '';
      lines.push(`- **${esc(cell.text)}**: ${where}${link}${abandon ? ' (abandoned by the client: never told to go)' : ''}`);
      if (cell.diagnosis && !abandon) lines.push(`  - ${esc(cell.diagnosis.cause)} Fix: ${esc(cell.diagnosis.fix)}`);
    }
    lines.push('');
  }
  return lines.length === 0 ? 'No findings.' : lines.join('\n').trimEnd();
}

export function tableHtml(table: SurveyTable): string {
  const colour: Record<string, string> = {
    clean: '#d7f5dd',
    'leaves-processes': '#f8d0d0',
    'no-exit-on-eof': '#f8e0c0',
    'exits-late': '#f8ecd8',
    'stdout-not-clean': '#f5f0b0',
    'could-not-start': '#e0e0e0',
    'not-judged': '#e8e8f8',
  };
  const columns = columnsOf(table);
  const head = `<tr><th>server</th><th>version</th><th>SDK read</th>${columns.map((c) => `<th>${html(c.name)}</th>`).join('')}</tr>`;
  const rows = table.rows.map((r) => {
    const cells = columns.map((column) => {
      const c = column.cell(r);
      if (!c) return '<td></td>';
      const body = (c.evidence ? `<a href="${html(c.evidence)}">${html(c.short)}</a>` : html(c.short)) + html(markOf(c));
      const title = ` title="${html(c.diagnosis ? `${c.text}. ${c.diagnosis.cause} Fix: ${c.diagnosis.fix}` : c.text)}"`;
      return `<td style="background:${colour[c.kind]}"${title}>${body}</td>`;
    });
    const name = r.report ? `<a href="${html(r.report)}">${html(r.id)}</a>` : html(r.id);
    return `<tr><td>${name}</td><td>${html(`${r.package}@${r.version}`)}</td><td>${html(r.sdkRead ?? `(documented) ${r.sdkDocumented}`)}</td>${cells.join('')}</tr>`;
  });
  return [
    '<!doctype html><html><head><meta charset="utf-8"><title>crash-drill survey</title>',
    '<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #999;padding:4px;font-size:13px;vertical-align:top}</style></head><body>',
    `<h1>crash-drill survey</h1><p>${table.rows.length} servers × ${table.profiles.length} client profiles, from ${html(table.catalog)}.</p>`,
    `<table>${head}${rows.join('')}</table></body></html>`,
    '',
  ].join('\n');
}

/** The lines after the table: each server's version, use figure and known issues. */
export function serversMarkdown(table: SurveyTable): string {
  const lines = [
    '| server | registry | language | SDK as documented | use (source) | repository | known lifecycle issues | note |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of table.rows) {
    const note = [r.notStarted ? `not drilled: ${r.notStarted}` : '', r.missingTools.length > 0 ? `calls not offered: ${r.missingTools.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    lines.push(
      `| ${r.id} | ${r.registry} \`${esc(r.package)}\` ${r.version} | ${esc(r.language)} | ${esc(r.sdkDocumented)} | ${esc(r.use.figure ?? 'not read')} (${esc(r.use.source)}) | ${r.repository} | ${r.issues.join(', ')} | ${esc(note)} |`,
    );
  }
  return lines.join('\n');
}
