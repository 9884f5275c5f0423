/**
 * The cleanup expectation on the terminal, statements × servers, as summary.md sets it out, so a
 * first run ends with what this tool is for, not only with what fails.
 */
import type { Colors } from './colors.js';
import { statusOf } from './expectation-markdown.js';
import { profilesText, STATEMENT_IDS, STATEMENT_LABELS } from '../harness/results/constants.js';
import type { ExpectationResults } from '../harness/results/types.js';

export function expectationTable(expectation: ExpectationResults | undefined, c: Colors): string | null {
  const servers = expectation?.servers ?? [];
  if (servers.length === 0) return null;
  const ids = STATEMENT_IDS.filter((id) => servers.some((s) => s.statements.some((st) => st.statement === id)));
  const rows: string[][] = [['', ...servers.map((s) => s.server)]];
  for (const id of ids) {
    rows.push([
      STATEMENT_LABELS[id],
      ...servers.map((s) => {
        const st = s.statements.find((x) => x.statement === id);
        if (!st) return '-';
        const under = st.profiles ? `: ${profilesText(st.profiles)}` : '';
        return `${statusOf(st)}${st.ms !== undefined ? ` (${st.ms} ms)` : ''}${under}`;
      }),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const paint = (cell: string): string => {
    if (cell.startsWith('not met')) return c.red(cell);
    if (cell.startsWith('not shown')) return c.yellow(cell);
    if (cell.startsWith('met')) return c.green(cell);
    if (cell.startsWith('known')) return c.cyan(cell);
    return cell;
  };
  // Padded as plain text, then painted: ANSI codes have no width.
  const line = (r: string[], header: boolean) =>
    `  ${r
      .map((cell, i) => {
        const padded = i === r.length - 1 ? cell : cell.padEnd(widths[i]);
        return header || i === 0 ? padded : paint(cell) + padded.slice(cell.length);
      })
      .join('  ')
      .trimEnd()}\n`;
  return rows.map((r, i) => line(r, i === 0)).join('');
}
