/**
 * The whole report page: header with the summary line, the matrix, then every drill (those that
 * failed first, then errors, unknowns, passes; run order within each).
 */
import { staleAdvice } from '../../harness/results/constants.js';
import type { DrillResult, RunReport } from '../types.js';
import { summaryLine } from '../summary-line.js';
import { CSS, SCRIPT } from './assets.js';
import { renderDrill } from './drill-section.js';
import { codeHtml, esc, verdictClass } from './escape.js';
import type { EvidenceRead } from './evidence-file.js';
import { renderMatrix } from './matrix.js';
import { EXPECTATION_CSS, renderExpectation } from './expectation.js';
import type { DrillLine } from './types.js';

const RANK: Record<string, number> = { fail: 0, error: 1, unknown: 2, known: 3, pass: 4 };

export function drillLine(d: DrillResult): DrillLine {
  return {
    id: d.id,
    key: d.key,
    scenario: d.scenario,
    point: d.point,
    mode: d.mode,
    clientProfile: d.clientProfile,
    ...(d.clientVersions ? { clientVersions: d.clientVersions } : {}),
    verdict: d.verdict,
    reason: d.reason,
    durationMs: d.durationMs,
    subject: { name: d.subject.name },
  };
}

/** The page's fields of a run, with its drills as an array of T (whole results, or their lines). */
type PageRun<T> = Omit<RunReport, 'drills'> & { drills: readonly T[] };

export function drillOrder<T extends Pick<DrillResult, 'verdict'>>(drills: readonly T[]): T[] {
  return drills
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (RANK[a.d.verdict] ?? 5) - (RANK[b.d.verdict] ?? 5) || a.i - b.i)
    .map(({ d }) => d);
}

function stale(results: PageRun<unknown>): string {
  if (results.stale.length === 0) return '';
  const rows = results.stale
    .map((s) => `<li>drill ${esc(s.drillId)}: pid ${esc(s.pid)} <code>${esc(s.cmdline.join(' '))}</code>, ended by ${esc(s.endedBy)}</li>`)
    .join('');
  return `<h2>Left over from an earlier run</h2><ul>${rows}</ul>`;
}

/** Baseline entries that now pass: they fail the run until removed. */
function staleBaseline(results: PageRun<unknown>): string {
  const b = results.baseline;
  if (!b || b.stale.length === 0) return '';
  const rows = b.stale.map((e) => `<li><code>${esc(e.drill)}</code> ${esc(e.check ?? '(the drill)')}: was ${esc(e.verdict)}, now passes</li>`).join('');
  return `<h2>Stale baseline entries</h2><p class="warn">They now pass and fail the run: ${staleAdvice(b.stale.length, b.file, codeHtml)}.</p><ul>${rows}</ul>`;
}

/** What each check tests, where it comes from: each drill's check links here (#requirement-<id>). Older results have none. */
function requirements(results: PageRun<unknown>): string {
  const list = results.requirements?.checks ?? [];
  if (list.length === 0) return '';
  const rows = list
    .map(({ id, requirement: r }) => {
      const source =
        r.source === 'practice' ? 'practice' : r.source === 'conformance' ? `conformance <code>${esc(r.id)}</code>` : `spec ${esc(r.revision ?? '')}`;
      // The address as text, not a link: the page names nothing outside itself (it works offline, from file://).
      const link = r.url ? ` <span class="muted">${esc(r.url.replace(/^https?:\/\//, ''))}</span>` : '';
      const why = r.reason && r.source === 'practice' ? `<div class="muted">why: ${esc(r.reason)}</div>` : '';
      return `<tr id="requirement-${esc(id)}"><td><code>${esc(id)}</code></td><td>${source}${r.level ? ` <strong>${esc(r.level)}</strong>` : ''}</td><td>${esc(r.text)}${link}${why}</td></tr>`;
    })
    .join('');
  return `<h2>What each check tests</h2><table class="checks requirements"><tbody>${rows}</tbody></table>`;
}

export function renderPage(results: PageRun<DrillResult>, evidence: Map<string, EvidenceRead | { error: string } | null>): string {
  return renderPageWith(results, (d) => renderDrill(d, evidence.get(d.id) ?? null));
}

/** The page with each drill's section as `section` renders it (in full, or a stub whose body loads when opened). */
export function renderPageWith<T extends DrillLine>(results: PageRun<T>, section: (d: T) => string): string {
  return [...pageChunks(results, section)].join('');
}

/** The same, a drill's section at a time: a large run's page (9 MB at 10,000 drills) is never one string. */
export function* pageChunks<T extends DrillLine>(results: PageRun<T>, section: (d: T) => string): Generator<string> {
  const { summary } = results;
  const counts = (['pass', 'fail', 'known', 'unknown', 'error'] as const)
    .filter((v) => v !== 'known' || summary.known !== undefined)
    .map((v) => `<span class="${verdictClass(v)}" style="background:var(--v)">${summary[v] ?? 0} ${v}</span>`)
    .join('');
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>crash-drill ${esc(results.runId)}: ${esc(summaryLine(results))}</title>
<style>${CSS}${EXPECTATION_CSS}</style></head>
<body>
<header><h1>crash-drill report</h1>
<p class="summary-line" id="summary-line">${esc(summaryLine(results))}</p>
<p class="counts">${counts}</p>
<p class="muted">run ${esc(results.runId)} · ${esc(results.startedAt)} → ${esc(results.finishedAt)} · ${esc(results.harness.name)} ${esc(results.harness.version)}${results.interrupted ? ' · <span class="warn">interrupted</span>' : ''}</p></header>
<h2>Matrix</h2>
${renderMatrix(results.drills, results.notRepeated)}
${renderExpectation(results.expectation, results.baseline, results.drills, results.notRepeated)}
${stale(results)}
${staleBaseline(results)}
<h2>Drills</h2>
<div class="toolbar"><button type="button" data-open="all">expand all</button><button type="button" data-open="none">collapse all</button></div>
`;
  for (const [i, d] of drillOrder(results.drills).entries()) yield `${i === 0 ? '' : '\n'}${section(d)}`;
  yield `
${requirements(results)}
<script>${SCRIPT}</script>
</body></html>
`;
}
