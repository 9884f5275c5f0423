/**
 * The matrix: a row per scenario (and per profile beneath it, matrix-layout.ts), a column per kill
 * point × mode; each cell links to its drills, coloured by verdict, a chip per repeat.
 */
import { notRepeatedCopies } from '../../harness/results/constants.js';
import type { NotRepeatedDrill } from '../../harness/results/types.js';
import { drillsAt, matrixLayout, type MatrixRow } from '../matrix-layout.js';
import type { DrillLine } from './types.js';
import { anchorOf, esc, verdictClass } from './escape.js';

const SHORT: Record<string, string> = { pass: 'pass', fail: 'FAIL', unknown: '?', error: 'ERR', known: 'known' };

/** A matrix drill; `sameAs` on a drill not repeated, whose chip shows and links the drill that ran in its place. */
type Shown = DrillLine & { sameAs?: string };

function cell(here: readonly Shown[]): string {
  if (here.length === 0) return '<td class="cell empty">&middot;</td>';
  const chips = here
    .map((d) => {
      const same = d.sameAs === undefined ? '' : `not repeated, the same drill as ${d.sameAs}: `;
      const text = `${d.sameAs === undefined ? '' : '= '}${SHORT[d.verdict] ?? d.verdict}`;
      return `<a class="chip ${verdictClass(d.verdict)}${d.sameAs === undefined ? '' : ' same-as'}" href="#${esc(anchorOf(d.id))}" data-drill="${esc(d.id)}" title="${esc(`${same}${d.verdict}: ${d.reason}`)}">${esc(text)}</a>`;
    })
    .join('');
  const worst = ['error', 'fail', 'unknown', 'known', 'pass'].find((v) => here.some((d) => d.verdict === v)) ?? 'unknown';
  return `<td class="cell ${verdictClass(worst)}">${chips}</td>`;
}

/** The drills that ran, and in its own cell each drill not repeated (results.json `notRepeated`), marked `=`. */
export function renderMatrix(ran: readonly DrillLine[], notRepeated: readonly NotRepeatedDrill[] = []): string {
  if (ran.length === 0) return '<p class="muted">No drills ran.</p>';
  const copies = notRepeatedCopies(ran, notRepeated);
  const drills: Shown[] = [...ran, ...copies];
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
  const note =
    copies.length > 0
      ? '<p class="muted">= : not repeated; the verdict of the same drill, which ran under another scenario or client profile, or in close where the client quit with nothing left to reach (results.json notRepeated).</p>'
      : '';
  return `<table class="matrix${profiled ? ' profiled' : ''}"><thead><tr>${corner}${head1}</tr><tr>${head2}</tr></thead><tbody>${body}</tbody></table>${note}`;
}
