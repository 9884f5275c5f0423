/**
 * The matrix: a row per scenario (and per profile beneath it, matrix-layout.ts), a column per kill
 * point × mode; each cell links to its drills, coloured by verdict, a chip per repeat.
 */
import { drillsAt, matrixLayout, type MatrixRow } from '../matrix-layout.js';
import type { DrillLine } from './types.js';
import { anchorOf, esc, verdictClass } from './escape.js';

const SHORT: Record<string, string> = { pass: 'pass', fail: 'FAIL', unknown: '?', error: 'ERR', known: 'known' };

function cell(here: readonly DrillLine[]): string {
  if (here.length === 0) return '<td class="cell empty">&middot;</td>';
  const chips = here
    .map(
      (d) =>
        `<a class="chip ${verdictClass(d.verdict)}" href="#${esc(anchorOf(d.id))}" data-drill="${esc(d.id)}" title="${esc(`${d.verdict}: ${d.reason}`)}">${esc(SHORT[d.verdict] ?? d.verdict)}</a>`,
    )
    .join('');
  const worst = ['error', 'fail', 'unknown', 'known', 'pass'].find((v) => here.some((d) => d.verdict === v)) ?? 'unknown';
  return `<td class="cell ${verdictClass(worst)}">${chips}</td>`;
}

export function renderMatrix(drills: readonly DrillLine[]): string {
  if (drills.length === 0) return '<p class="muted">No drills ran.</p>';
  const { points, modes, profiled, rows, spans } = matrixLayout(drills);
  const head1 = points.map((p) => `<th colspan="${modes.length}" class="point">${esc(p)}</th>`).join('');
  const head2 = points.map(() => modes.map((m) => `<th class="mode">${esc(m)}</th>`).join('')).join('');
  const name = (row: MatrixRow<DrillLine>, span: number) =>
    `<th class="scenario"${span > 1 ? ` rowspan="${span}"` : ''}>${esc(row.scenario)}<span class="subject">${esc(row.subject)}</span></th>`;
  const body = rows
    .map((row, i) => {
      const span = spans.get(i);
      const cells = points.flatMap((p) => modes.map((m) => cell(drillsAt(row, p, m)))).join('');
      // A scenario's later profiles start a new group only in the first row: the name spans them.
      const first = span === undefined ? '' : name(row, span);
      const group = span === undefined ? '' : ' class="group"';
      return `<tr${profiled ? group : ''}>${first}${profiled ? `<th class="profile">${esc(row.profile)}</th>` : ''}${cells}</tr>`;
    })
    .join('');
  const corner = profiled ? '<th rowspan="2">scenario / subject</th><th rowspan="2">client</th>' : '<th rowspan="2">scenario / subject</th>';
  return `<table class="matrix${profiled ? ' profiled' : ''}"><thead><tr>${corner}${head1}</tr><tr>${head2}</tr></thead><tbody>${body}</tbody></table>`;
}
