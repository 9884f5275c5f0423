/**
 * The matrix: one row per scenario (and its subject), one column per kill point × mode; each
 * cell links to its drills, coloured by verdict. A repeated drill gets one chip per run.
 */
import { KILL_MODES, KILL_POINTS, modeLabel } from '../../harness/results/constants.js';
import type { DrillLine } from './types.js';
import { anchorOf, esc, verdictClass } from './escape.js';

/** Kill points in the order a call passes them, modes as declared; anything else (an older run's) follows in the order seen. */
function ordered(values: string[], order: readonly string[]): string[] {
  const seen = [...new Set(values)];
  return [...order.filter((v) => seen.includes(v)), ...seen.filter((v) => !order.includes(v))];
}

const SHORT: Record<string, string> = { pass: 'pass', fail: 'FAIL', unknown: '?', error: 'ERR', known: 'known' };

export function renderMatrix(drills: readonly DrillLine[]): string {
  if (drills.length === 0) return '<p class="muted">No drills ran.</p>';
  const points = ordered(
    drills.map((d) => d.point),
    KILL_POINTS,
  );
  // A mode under a client profile other than the default is a column of its own (`stop@codex`): the client axis.
  const labels = [...new Set(drills.map((d) => modeLabel(d)))];
  const modes = ordered(
    labels,
    KILL_MODES.flatMap((m) => [m, ...labels.filter((l) => l.startsWith(`${m}@`))]),
  );
  // One row per scenario and subject: a scenario drilling several servers shows them side by side.
  const rowKey = (d: DrillLine) => `${d.scenario}\u0000${d.subject.name}`;
  // Grouped once (in the order first seen), not filtered per row: a 10,000-drill run has 1,250 rows.
  const byRow = new Map<string, DrillLine[]>();
  for (const d of drills) {
    const mine = byRow.get(rowKey(d)) ?? [];
    mine.push(d);
    byRow.set(rowKey(d), mine);
  }
  const head1 = points.map((p) => `<th colspan="${modes.length}" class="point">${esc(p)}</th>`).join('');
  const head2 = points.map(() => modes.map((m) => `<th class="mode">${esc(m)}</th>`).join('')).join('');
  const rows = [...byRow.values()]
    .map((own) => {
      const scenario = own[0].scenario;
      const cells = points
        .flatMap((p) =>
          modes.map((m) => {
            const here = own.filter((d) => d.point === p && modeLabel(d) === m);
            if (here.length === 0) return '<td class="cell empty">&middot;</td>';
            const chips = here
              .map(
                (d) =>
                  `<a class="chip ${verdictClass(d.verdict)}" href="#${esc(anchorOf(d.id))}" data-drill="${esc(d.id)}" title="${esc(`${d.verdict}: ${d.reason}`)}">${esc(SHORT[d.verdict] ?? d.verdict)}</a>`,
              )
              .join('');
            const worst = ['error', 'fail', 'unknown', 'known', 'pass'].find((v) => here.some((d) => d.verdict === v)) ?? 'unknown';
            return `<td class="cell ${verdictClass(worst)}">${chips}</td>`;
          }),
        )
        .join('');
      return `<tr><th class="scenario">${esc(scenario)}<span class="subject">${esc(own[0].subject.name)}</span></th>${cells}</tr>`;
    })
    .join('');
  return `<table class="matrix"><thead><tr><th rowspan="2">scenario / subject</th>${head1}</tr><tr>${head2}</tr></thead><tbody>${rows}</tbody></table>`;
}
