/**
 * `<out>/summary.md`, also appended to GITHUB_STEP_SUMMARY in GitHub Actions, where the first 10
 * failures become `::error` annotations (GitHub shows at most 10 per step), printed as drills end
 * so the console's closing line stays last. Annotations are runner commands, so printsToStdio() is false.
 */
import { appendFileSync } from 'node:fs';
import { writeTextAtomic } from './write-atomic.js';
import { join } from 'node:path';
import type { ReporterOptions } from './types.js';
import { summaryLine } from './summary-line.js';
import { notRepeatedLine } from './not-repeated-line.js';
import { expectationMarkdown } from './expectation-markdown.js';
import { modeLabel, notRepeatedCopies, staleAdvice, unsourcedNotes } from '../harness/results/constants.js';
import { drillsAt, matrixLayout } from './matrix-layout.js';
import { anchorOf } from './html/escape.js';
import type { DrillList, DrillResult, Reporter, RunReport } from './types.js';
import { InternalError, requirementLine } from '../harness/results/constants.js';

type Out = { write(s: string): unknown };
/** What the table and the lists need of a drill; the failed drills are read again in full. */
type Brief = Pick<DrillResult, 'id' | 'key' | 'scenario' | 'point' | 'mode' | 'verdict' | 'reason' | 'known'> & {
  subject: { name: string };
  clientProfile: DrillResult['clientProfile'];
  clientVersions?: string;
  unsourcedSteps?: DrillResult['unsourcedSteps'];
  /** A drill not repeated: the key of the drill whose verdict it shows. */
  sameAs?: string;
};

function briefs(drills: DrillList): Brief[] {
  const out: Brief[] = [];
  for (const d of drills)
    out.push({
      id: d.id,
      key: d.key,
      scenario: d.scenario,
      point: d.point,
      mode: d.mode,
      clientProfile: d.clientProfile,
      ...(d.clientVersions ? { clientVersions: d.clientVersions } : {}),
      ...(d.unsourcedSteps ? { unsourcedSteps: d.unsourcedSteps } : {}),
      verdict: d.verdict,
      reason: d.reason,
      known: d.known,
      subject: { name: d.subject.name },
    });
  return out;
}

export const MAX_ANNOTATIONS = 10;

export const VERDICT_ICON: Record<string, string> = { pass: '✅', fail: '❌', unknown: '❔', error: '💥', known: '🔷' };

export class StepSummaryError extends InternalError {
  readonly code = 'CRASH_DRILL_STEP_SUMMARY';
}

export class MarkdownReporter implements Reporter {
  name = 'markdown';
  constructor(
    private readonly outDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly out: Out = process.stdout,
    /** The files the run writes (ReporterOptions.files); unknown (a direct call): report.html is assumed. */
    private readonly files?: readonly string[],
  ) {}

  /** Drills that failed or errored so far, and whether any drill ended live (before onRunEnd). */
  private bad = 0;
  private live = false;

  printsToStdio(): boolean {
    return false;
  }

  onDrillEnd(result: DrillResult): void {
    this.live = true;
    if (!this.env.GITHUB_ACTIONS || (result.verdict !== 'fail' && result.verdict !== 'error')) return;
    this.bad++;
    if (this.bad <= MAX_ANNOTATIONS) this.out.write(`${annotation(result)}\n`);
    if (this.bad === MAX_ANNOTATIONS + 1) this.out.write(`${moreNotice(null)}\n`);
  }

  onRunEnd(results: RunReport): void {
    const text = summaryMarkdown(results, !this.files || this.files.includes('report.html'));
    const file = join(this.outDir, 'summary.md');
    writeTextAtomic(file, text);
    if (this.env.GITHUB_ACTIONS && !this.live) for (const line of annotations(results)) this.out.write(`${line}\n`);
    const stepSummary = this.env.GITHUB_STEP_SUMMARY;
    if (stepSummary) {
      try {
        appendFileSync(stepSummary, `${text}\n`);
      } catch (error) {
        throw new StepSummaryError(
          `cannot append the summary to GITHUB_STEP_SUMMARY (${stepSummary}): ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}

export function create(options: ReporterOptions): MarkdownReporter {
  return new MarkdownReporter(options.outDir, options.env ?? process.env, options.stdout ?? process.stdout, options.files);
}

/**
 * The summary, short enough for a job summary at any size of run: each failed drill a line with
 * its failed checks, linked to report.html when the run writes it; results.json holds them all.
 */
export function summaryMarkdown(results: RunReport, linkHtml = true): string {
  const lines: string[] = ['# Crash drill summary', ''];
  const drills = briefs(results.drills);
  const n = drills.length;
  lines.push(`Run ${code(results.runId)}, ${md(results.startedAt)} to ${md(results.finishedAt)}, ${n} drill${n === 1 ? '' : 's'}.`, '');
  const notRepeated = notRepeatedLine(results);
  if (notRepeated) lines.push(`${md(notRepeated)}.`, '');
  if (results.interrupted) lines.push('**The run was interrupted**; the active drills were contained.', '');
  // A drill not repeated shows, in its own cell, the verdict of the drill that ran in its place.
  const shown = [...drills, ...notRepeatedCopies(drills, results.notRepeated)];
  lines.push(...table(shown), '', summaryLine(results), '');
  // A verdict under a client profile is only as good as the profile's steps: say which rest on no source.
  const unsourced = unsourcedNotes(shown);
  if (unsourced.length > 0) lines.push('## Unsourced client-profile steps', '', ...unsourced.map((u) => `- ${md(u)}`), '');
  // Each server's cleanup expectation, side by side (reports/expectation-markdown.ts).
  lines.push(...expectationMarkdown(results.expectation, results.baseline, md, code));

  const failed = drills.flatMap((d, i) => (d.verdict === 'fail' ? [i] : []));
  if (failed.length > 0) {
    const where = linkHtml ? 'report.html (the link on its name) and results.json' : 'results.json';
    lines.push('## Failed drills', '', `Each drill's incident record, timeline and evidence are in ${where}.`, '');
    const checks = new Set<string>();
    for (const i of failed) lines.push(...failedDrill(results.drills.at(i)!, linkHtml, checks));
    lines.push('', ...requirementList(results, checks));
  }

  // Failures a baseline lists, apart from the new ones above: they do not fail the run.
  const known = drills.filter((d) => d.known?.length);
  if (known.length > 0) {
    lines.push(`## Known failures (baseline ${code(results.baseline?.file ?? '')})`, '');
    for (const d of known)
      for (const k of d.known ?? [])
        lines.push(
          `- ${VERDICT_ICON.known} ${md(d.scenario)} ${md(`${d.point}/${modeLabel(d)}`)} **${md(k.check)}**: ${k.reason ? md(k.reason) : '_no reason written_'}`,
        );
    lines.push('');
  }
  const b = results.baseline;
  if (b && b.stale.length > 0) {
    lines.push('## Stale baseline entries', '', `They now pass and fail the run: ${staleAdvice(b.stale.length, b.file, code)}.`, '');
    for (const e of b.stale) lines.push(`- ${code(e.drill)} ${md(e.check ?? '(the drill)')}: was ${e.verdict}, now passes`);
    lines.push('');
  }

  const other = drills.filter((d) => d.verdict === 'unknown' || d.verdict === 'error');
  if (other.length > 0) {
    lines.push('## Drills without a pass or fail', '');
    for (const d of other)
      lines.push(`- ${VERDICT_ICON[d.verdict]} ${d.verdict} ${md(d.scenario)} ${md(`${d.point}/${modeLabel(d)}`)} (${code(d.id)}): ${md(d.reason)}`);
    lines.push('');
  }
  if (results.stale.length > 0) {
    lines.push('## Left behind by an earlier, killed run (now contained)', '');
    for (const s of results.stale) lines.push(`- ${code(s.drillId)} pid ${s.pid} ${code(s.cmdline.join(' '))}: ${md(s.endedBy)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Rows: subject / scenario, and per client profile (reports/matrix-layout.ts); columns: kill point × mode. */
function table(drills: Brief[]): string[] {
  const { columns, profiled, rows } = matrixLayout(drills);
  const client = profiled ? ' client |' : '';
  const head = `| subject / scenario |${client} ${columns.map(([p, m]) => md(`${p} / ${m}`)).join(' | ')} |`;
  const rule = `| --- |${profiled ? ' --- |' : ''} ${columns.map(() => ':---:').join(' | ')} |`;
  const body = rows.map((row) => {
    const cells = columns.map(([p, m]) => cell(drillsAt(row, p, m)));
    return `| ${md(row.subject)} / ${md(row.scenario)} |${profiled ? ` ${md(row.profile)} |` : ''} ${cells.join(' | ')} |`;
  });
  const same = drills.some((d) => d.sameAs !== undefined) ? ['', SAME_AS_NOTE] : [];
  return [head, rule, ...body, ...same];
}

const SAME_AS_NOTE =
  '`=`: not repeated; the verdict of the same drill, which ran under another scenario or client profile, or in close where the client quit with nothing left to reach (results.json `notRepeated`).';

/** `✅ pass`; with repeats, each verdict with its count (`❌ fail ×1, ✅ pass ×2`); `–` when not drilled; `= ✅ pass` when not repeated. */
function cell(drills: Brief[]): string {
  if (drills.length === 0) return '–';
  if (drills.every((d) => d.sameAs !== undefined)) return `= ${cell(drills.map(({ sameAs: _sameAs, ...d }) => d))}`;
  const counts = new Map<string, number>();
  for (const d of drills) counts.set(d.verdict, (counts.get(d.verdict) ?? 0) + 1);
  if (drills.length === 1) return `${VERDICT_ICON[drills[0].verdict]} ${drills[0].verdict}`;
  return [...counts].map(([verdict, count]) => `${VERDICT_ICON[verdict]} ${verdict} ×${count}`).join(', ');
}

/** A failed drill as a line, linked to its section of report.html, with each failed check's summary beneath it. */
function failedDrill(drill: DrillResult, linkHtml: boolean, checks: Set<string>): string[] {
  const title = `${md(drill.scenario)} ${md(`${drill.point}/${modeLabel(drill)}`)}`;
  const name = linkHtml ? `[${title}](report.html#${anchorOf(drill.id)})` : title;
  const known = drill.known?.length ? '; the baseline knows its other failed checks' : '';
  const lines = [`- ${VERDICT_ICON.fail} ${name}: subject ${md(drill.subject.name)}, drill ${code(drill.id)}${known}`];
  for (const check of drill.checks.filter((c) => c.verdict === 'fail' && !drill.known?.some((k) => k.check === c.id))) {
    checks.add(check.id);
    lines.push(`  - **${md(check.id)}**: ${md(check.summary)}`);
  }
  return lines;
}

/** What each failed check requires, once for the whole list (results.json's `requirements`; older results have none). */
function requirementList(results: RunReport, checks: Set<string>): string[] {
  const known = (results.requirements?.checks ?? []).filter((c) => checks.has(c.id));
  if (known.length === 0) return [];
  return ['What the failed checks require:', '', ...known.map((c) => `- **${md(c.id)}**: ${md(requirementLine(c.requirement))}`), ''];
}

/** `::error title=...::message` for the first failed or errored drills, and a notice for the rest. */
export function annotations(results: RunReport): string[] {
  const bad = briefs(results.drills).filter((d) => d.verdict === 'fail' || d.verdict === 'error');
  const lines = bad.slice(0, MAX_ANNOTATIONS).map(annotation);
  if (bad.length > MAX_ANNOTATIONS) lines.push(moreNotice(bad.length - MAX_ANNOTATIONS));
  return lines;
}

function annotation(d: Brief): string {
  return `::error title=${escapeProperty(`crash-drill ${d.verdict}: ${d.scenario} ${d.point}/${modeLabel(d)}`)}::${escapeData(`${d.reason} (drill ${d.id})`)}`;
}

/** While drills still run the count is not known yet: then it says only that there are more. */
function moreNotice(more: number | null): string {
  const what = more === null ? 'More drills failed or errored' : `${more} more drill${more === 1 ? '' : 's'} failed or errored`;
  return `::notice title=crash-drill::${escapeData(`${what}; see summary.md`)}`;
}

/** @actions/core command.ts escapeData: `%`, CR and LF would end or corrupt the command. */
function escapeData(s: string): string {
  return visible(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** @actions/core command.ts escapeProperty: also `:` and `,`, which separate properties. */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Control characters (ESC among them, so no ANSI code) as visible `\uXXXX`; CR/LF/tab left to the caller. */
function visible(s: string): string {
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Free text in Markdown: one line, with what could start HTML, an entity, a link, emphasis, code
 * or a cell backslash-escaped. `_` is left alone: GFM never reads it inside a word as emphasis.
 */
export function md(s: string): string {
  return visible(s)
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[\\`*[\]<>|&]/g, (c) => `\\${c}`);
}

/** An inline code span whose fence is longer than any backtick run inside it (CommonMark 6.1); never used in a table. */
export function code(s: string): string {
  const text = visible(s).replace(/[\r\n\t]+/g, ' ');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
