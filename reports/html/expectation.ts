/** The cleanup expectation in report.html: statements × servers, each cell linking its deciding drills or naming what would show it. */
import { profilesText, staleAdvice, STATEMENT_IDS, STATEMENT_LABELS } from '../../harness/results/constants.js';
import type { BaselineInfo, DrillResult, ExpectationResults, NotRepeatedDrill, StatementResult } from '../../harness/results/types.js';
import { anchorOf, codeHtml, esc } from './escape.js';

/** `not met` of a statement the baseline lists reads `known`, as a check's known failure does. */
const statusOf = (st: StatementResult) => (st.status === 'not met' && st.known ? 'known' : st.status);
const CLASS: Record<string, string> = { met: 'v-pass', 'not met': 'v-fail', 'not shown': 'v-unknown', known: 'v-known' };

export const EXPECTATION_CSS = `
table.expectation th,table.expectation td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
table.expectation th.server{background:var(--soft)}table.expectation .command{display:block;font-weight:400;color:var(--muted);font-size:11px}
table.expectation td.st{background:color-mix(in srgb,var(--v) 12%,#fff);min-width:180px}
table.expectation .status{font-weight:600;color:var(--v)}table.expectation .hint,table.expectation .tell{display:block;color:var(--muted);font-size:11px}
table.expectation td.undeclared{color:var(--line)}table.expectation .drills{display:block;margin-top:2px}
`;

export function renderExpectation(
  expectation: ExpectationResults | undefined,
  baseline: BaselineInfo | undefined,
  drills: readonly Pick<DrillResult, 'id' | 'key'>[],
  notRepeated: readonly NotRepeatedDrill[] = [],
): string {
  const stale = staleStatements(baseline);
  if (!expectation || expectation.servers.length === 0) return stale;
  // A drill key links to its first attempt's section; a drill not repeated, to the one that ran in its place.
  const idOf = new Map<string, string>();
  for (const d of drills) if (!idOf.has(d.key)) idOf.set(d.key, d.id);
  for (const n of notRepeated) {
    const id = idOf.get(n.sameAs);
    if (id !== undefined && !idOf.has(n.key)) idOf.set(n.key, id);
  }
  const link = (key: string) => {
    const id = idOf.get(key);
    return id ? `<a class="drill-key" href="#${esc(anchorOf(id))}" data-drill="${esc(id)}"><code>${esc(key)}</code></a>` : `<code>${esc(key)}</code>`;
  };
  const { servers } = expectation;
  const ids = STATEMENT_IDS.filter((id) => servers.some((s) => s.statements.some((st) => st.statement === id)));
  const head = servers
    .map((s) => `<th class="server" data-server="${esc(s.server)}">${esc(s.server)}<span class="command">${esc([s.command, ...s.args].join(' '))}</span></th>`)
    .join('');
  const rows = ids
    .map((id) => {
      const cells = servers
        .map((s) => {
          const st = s.statements.find((x) => x.statement === id);
          if (!st) return '<td class="undeclared">not declared</td>';
          const status = statusOf(st);
          const parts = [`<span class="status">${esc(status)}</span>`, ` <span class="text">${esc(st.text)}</span>`];
          if (st.known) parts.push(`<span class="hint">baseline: ${esc(st.known.reason || 'no reason written')}</span>`);
          if (st.drills.length > 0) parts.push(`<span class="drills">${st.drills.map(link).join(' ')}</span>`);
          if (st.wouldShow) parts.push(`<span class="hint">would be shown by ${esc(st.wouldShow.text)}</span>`);
          if (st.couldNotTell?.length) parts.push(`<span class="tell">could not tell: ${st.couldNotTell.map(link).join(' ')}</span>`);
          if (st.profiles) parts.push(`<span class="hint">${esc(profilesText(st.profiles))}</span>`);
          return `<td class="st ${CLASS[status]}" data-server="${esc(s.server)}" data-statement="${esc(id)}" data-status="${esc(status)}">${parts.join('')}</td>`;
        })
        .join('');
      return `<tr><th class="statement">${esc(STATEMENT_LABELS[id])}</th>${cells}</tr>`;
    })
    .join('');
  const n = expectation.notMet;
  const line = n === 0 ? 'No statement fails the run.' : `${n} statement${n === 1 ? '' : 's'} not met fail${n === 1 ? 's' : ''} the run.`;
  return `<h2 id="expectation">Cleanup expectation</h2>
<p class="${n === 0 ? 'muted' : 'warn'}" id="expectation-line">${esc(line)}</p>
<table class="expectation"><thead><tr><th>statement</th>${head}</tr></thead><tbody>${rows}</tbody></table>
${stale}`;
}

function staleStatements(baseline: BaselineInfo | undefined): string {
  const stale = baseline?.statements?.stale ?? [];
  if (stale.length === 0) return '';
  const rows = stale.map((e) => `<li>${esc(e.server)} <b>${esc(e.statement)}</b>: listed as not met, now met</li>`).join('');
  return `<h2>Stale baseline statements</h2><p class="warn">They are met now and fail the run: ${staleAdvice(stale.length, baseline?.file ?? '', codeHtml)}.</p><ul>${rows}</ul>`;
}
