import { makeColors, colorsEnabled, type Colors } from './colors.js';
import { modeLabel, notRepeatedCopies, staleAdvice, unsourcedNotes } from '../harness/results/constants.js';
import { summaryLine } from './summary-line.js';
import { notRepeatedLine } from './not-repeated-line.js';
import { notMetLines } from './expectation-markdown.js';
import { expectationTable } from './expectation-console.js';
import { isAbsolute, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DrillInfo, DrillResult, Reporter, RunReport, RunStartInfo } from './types.js';

type Out = { write(s: string): unknown; isTTY?: boolean };

/** Progress while drills run (on a TTY a live status line too), then every drill that did not pass, and the final line. */
export class ConsoleReporter implements Reporter {
  name = 'console';
  private readonly c: Colors;
  /** Each running drill's key and phase ('starting', 'waiting', 'containing'). */
  private readonly live = new Map<string, { key: string; phase: string }>();
  private total = 0;
  private done = 0;

  constructor(
    private readonly out: Out = process.stdout,
    /** The report folder and the files the run's reporters write there, named at the end. */
    private readonly reports: { outDir?: string; files?: string[] } = {},
  ) {
    this.c = makeColors(colorsEnabled(out));
  }

  printsToStdio(): boolean {
    return true;
  }

  onRunStart(info: RunStartInfo): void {
    this.total = info.total;
    const cpu = info.cpuSlots !== undefined && info.cpuSlots !== info.concurrency ? ` (${info.cpuSlots} CPU slot${info.cpuSlots === 1 ? '' : 's'})` : '';
    this.write(`crash-drill: ${info.total} drill${info.total === 1 ? '' : 's'}, concurrency ${info.concurrency}, run ${info.runId}${cpu}\n`);
  }

  onDrillStart(drill: DrillInfo): void {
    this.live.set(drill.id, { key: drill.key, phase: 'starting' });
    this.status();
  }

  onDrillPhase(drill: DrillInfo, phase: string): void {
    this.live.set(drill.id, { key: drill.key, phase });
    this.status();
  }

  onDrillEnd(result: DrillResult, progress: { done: number; total: number }): void {
    this.live.delete(result.id);
    this.done = progress.done;
    const width = String(progress.total).length;
    const n = `[${String(progress.done).padStart(width)}/${progress.total}]`;
    const checks = result.checks.map((check) => `${check.id}:${checkVerdict(result, check)}`).join(' ');
    this.write(`${this.c.dim(n)} ${this.paint(result.verdict)} ${label(result)}${firedOn(result)} ${this.c.dim(`${result.durationMs} ms ${checks}`)}\n`);
  }

  onRunEnd(results: RunReport): void {
    this.clearStatus();
    // Positions, not drills: each is read again to be printed (in a CLI run, from disk).
    const notPassedAt: number[] = [];
    const knownAt: number[] = [];
    let i = 0;
    for (const d of results.drills) {
      if (d.verdict !== 'pass' && d.verdict !== 'known') notPassedAt.push(i);
      if (d.known?.length) knownAt.push(i);
      i++;
    }
    const at = (i: number) => results.drills.at(i)!;
    const notPassed = {
      length: notPassedAt.length,
      *[Symbol.iterator]() {
        for (const i of notPassedAt) yield at(i);
      },
    };
    const known = {
      length: knownAt.length,
      *[Symbol.iterator]() {
        for (const i of knownAt) yield at(i);
      },
    };
    if (results.stale.length > 0) {
      this.write(`\n${this.c.yellow('Left behind by an earlier, killed run (now contained):')}\n`);
      for (const s of results.stale)
        this.write(
          `  ${s.drillId} pid ${s.pid} ${s.cmdline.join(' ').slice(0, 80)} -> ${s.endedBy}${s.containedBy === 'watchdog' ? " (by its holder's watchdog)" : ''}\n`,
        );
    }
    // Known failures (a baseline lists them) apart from new ones: they do not fail the run.
    if (known.length > 0) {
      this.write(`\n${this.c.bold(`Known failures (baseline ${results.baseline?.file ?? ''}):`)}\n`);
      for (const d of known)
        for (const k of d.known ?? []) this.write(`  ${this.paint('known')} ${label(d)} ${k.check}${k.reason ? `: ${k.reason}` : ' (no reason written)'}\n`);
    }
    if (notPassed.length > 0) {
      this.write(`\n${this.c.bold(results.baseline ? 'Drills that did not pass (new, not in the baseline):' : 'Drills that did not pass:')}\n`);
      for (const d of notPassed) {
        this.write(`  ${this.paint(d.verdict)} ${label(d)} (${d.id}): ${newReason(d)}\n`);
        // What the drill observed as the cause, and the change that fixes it (the incident record's diagnosis).
        for (const g of d.incident.diagnosis ?? []) {
          if (d.known?.some((k) => k.check === g.check)) continue;
          this.write(`      ${g.check}: ${g.cause}\n      fix: ${g.fix}\n`);
        }
        // The server's own record beside what the remote saw, when the drill read it.
        if (d.incident.activity) this.write(`      the server's own record: ${d.incident.activity.line}\n`);
      }
    }
    if (results.baseline && results.baseline.stale.length > 0) {
      const b = results.baseline;
      this.write(`\n${this.c.red(`Stale baseline entries (they now pass; ${b.stale.length === 1 ? 'it fails' : 'they fail'} the run):`)}\n`);
      for (const e of b.stale) this.write(`  ${this.c.red('STALE  ')} ${e.drill} ${e.check ?? '(the drill)'} was ${e.verdict}, now passes\n`);
      const advice = staleAdvice(b.stale.length, b.file);
      this.write(`  ${advice[0].toUpperCase()}${advice.slice(1)}.\n`);
    }
    const compared = comparison(results.drills);
    if (compared) this.write(`\n${this.c.bold('Servers side by side:')}\n${compared}`);
    // A drill whose repeated attempts disagree (--repeat, merged shards): it counts as failed.
    if (results.flaky && results.flaky.length > 0) {
      this.write(`\n${this.c.yellow('Flaky drills (verdicts differ across attempts; counted as failed):')}\n`);
      for (const f of results.flaky) this.write(`  ${this.c.yellow('FLAKY  ')} ${f.key}: ${f.verdicts.join(', ')}\n`);
    }
    // Every server's cleanup expectation, side by side; statements not met fail the run even when every drill passed.
    const table = expectationTable(results.expectation, this.c);
    if (table) this.write(`\n${this.c.bold('Cleanup expectation:')}\n${table}`);
    const unmet = notMetLines(results.expectation);
    if (unmet.length > 0) this.write(`\n${this.c.red('Cleanup expectation not met (fails the run):')}\n${unmet.join('')}`);
    const unsourced = unsourcedNotes([...results.drills, ...notRepeatedCopies(results.drills, results.notRepeated)]);
    if (unsourced.length > 0) this.write(`\n${this.c.yellow('Unsourced client-profile steps:')}\n${unsourced.map((u) => `  ${u}\n`).join('')}`);
    const notRepeated = notRepeatedLine(results);
    if (notRepeated) this.write(`\n${notRepeated}.\n`);
    const where = reportsLine(this.reports);
    if (where) this.write(`\n${where}`);
    if (results.interrupted) this.write(`\n${this.c.yellow('The run was interrupted; active drills were contained.')}\n`);
    this.write(`\n${summaryLine(results)}\n`);
  }

  private paint(verdict: string): string {
    const label = verdict.toUpperCase().padEnd(7);
    if (verdict === 'pass') return this.c.green(label);
    if (verdict === 'fail') return this.c.red(label);
    if (verdict === 'error') return this.c.magenta(label);
    if (verdict === 'known') return this.c.cyan(label);
    return this.c.yellow(label);
  }

  private status(): void {
    if (!this.out.isTTY || this.live.size === 0) return; // nothing running: no status line, so the summary stays last
    this.out.write(`\r\u001b[2K${this.c.dim(statusLine(this.done, this.total, [...this.live.values()]).slice(0, 150))}`);
  }

  private clearStatus(): void {
    if (this.out.isTTY) this.out.write('\r\u001b[2K');
  }

  private write(s: string): void {
    this.clearStatus();
    this.out.write(s);
    this.status();
  }
}

/** The live status line: counts starting (the CPU-heavy phase), exiting, waiting and containing, then which are starting. */
export function statusLine(done: number, total: number, live: Array<{ key: string; phase: string }>): string {
  const count = (phase: string) => live.filter((d) => d.phase === phase).length;
  const starting = live.filter((d) => d.phase === 'starting').map((d) => d.key);
  const other = live.filter((d) => !['starting', 'exiting', 'waiting', 'containing'].includes(d.phase)).map((d) => `${d.key} ${d.phase}`);
  const names = [...starting, ...other];
  return `${done}/${total} done; ${count('starting')} starting, ${count('exiting')} exiting, ${count('waiting')} waiting, ${count('containing')} containing${names.length ? `: ${names.join(' | ')}` : ''}`;
}

/** A check's verdict as shown: `known` when the baseline lists its failure. */
function checkVerdict(d: DrillResult, check: DrillResult['checks'][number]): string {
  return check.verdict === 'fail' && d.known?.some((k) => k.check === check.id) ? 'known' : check.verdict;
}

/** The reason of a drill that did not pass, without the failures the baseline already knows. */
function newReason(d: DrillResult): string {
  if (!d.known?.length || d.verdict !== 'fail') return d.reason;
  return d.checks
    .filter((c) => c.verdict === 'fail' && checkVerdict(d, c) === 'fail')
    .map((c) => `${c.id}: ${c.summary}`)
    .join(' | ');
}

/** ` on pid 4242 (sleep 300)`: the process the point fired on (child-spawned), else nothing. */
function firedOn(d: DrillResult): string {
  const p = d.pointProcess;
  if (!p) return '';
  const argv = p.cmdline.join(' ');
  return ` on pid ${p.pid} (${argv.length > 60 ? `${argv.slice(0, 59)}…` : argv})`;
}

/** `scenario point/mode`, with `[subject]` when the scenario drills several subjects (its key has four parts). */
function label(d: DrillResult): string {
  const compared = typeof d.key === 'string' && d.key.split('/').length > 3;
  return `${d.scenario}${compared ? ` [${d.subject.name}]` : ''} ${d.point}/${modeLabel(d)}`;
}

/** For scenarios naming several subjects: a row per scenario, point and mode, a column per subject. */
export function comparison(drills: Iterable<DrillResult>): string | null {
  const subjectSet = new Set<string>();
  const rows = new Map<string, Map<string, string>>();
  for (const d of drills) {
    if (typeof d.key !== 'string' || d.key.split('/').length <= 3) continue;
    subjectSet.add(d.subject.name);
    const row = `${d.scenario} ${d.point}/${modeLabel(d)}`;
    const failed = d.checks.filter((c) => c.verdict === 'fail').map((c) => c.id);
    const cell = d.verdict + (failed.length ? ` (${failed.join(', ')})` : '');
    if (!rows.has(row)) rows.set(row, new Map());
    rows.get(row)!.set(d.subject.name, cell);
  }
  if (rows.size === 0) return null;
  const subjects = [...subjectSet];
  const table = [['', ...subjects], ...[...rows].map(([row, cells]) => [row, ...subjects.map((s) => cells.get(s) ?? '-')])];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  return (
    table
      .map(
        (r) =>
          '  ' +
          r
            .map((cell, i) => cell.padEnd(widths[i]))
            .join('  ')
            .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Where the run's reports are, pasteable (relative when inside the working folder), and report.html as a file:// URL. */
export function reportsLine({ outDir, files }: { outDir?: string; files?: string[] }, cwd = process.cwd()): string | null {
  if (!outDir || !files?.length) return null;
  const rel = relative(cwd, outDir);
  const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? outDir : rel;
  const html = files.includes('report.html') ? `\nOpen the HTML report: ${pathToFileURL(join(outDir, 'report.html')).href}` : '';
  return `Reports in ${shown}/: ${files.join(', ')}${html}\n`;
}

export function create(options: { stdout?: Out; outDir?: string; files?: string[] }): ConsoleReporter {
  return new ConsoleReporter(options.stdout ?? process.stdout, { outDir: options.outDir, files: options.files });
}
