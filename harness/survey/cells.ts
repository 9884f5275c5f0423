/**
 * One server's row from its results.json, a cell per client profile. Cells hold only what every
 * run agrees on (no milliseconds), so two runs of a catalog give the same table.
 */
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { behaviourOf, type ProfileName } from '../client-profiles/profiles.js';
import { notRepeatedCopies } from '../results/constants.js';
import type { DrillResult, RunResults } from '../results/types.js';

export type CellKind = 'clean' | 'leaves-processes' | 'no-exit-on-eof' | 'exits-late' | 'stdout-not-clean' | 'could-not-start' | 'not-judged';

export interface Cell {
  kind: CellKind;
  /** The words of a finding: "clean", "leaves 1 process (sleep 300)", ... joined by "; ". */
  text: string;
  /** The table's words: each finding's kind and count only ("leaves 1", "no exit on EOF"), joined by " · ". */
  short: string;
  /** The drills that show it (point/mode), in plan order. */
  shownBy: string[];
  /** The first failing drill's evidence log, relative to the survey folder. */
  evidence: string | null;
  /** Its drill id, for report.html#drill-<id>. */
  drill: string | null;
  /** The first failed check's diagnosis: cause, then fix. */
  diagnosis: { cause: string; fix: string; sdk: string | null } | null;
  /** `survey --verify`'s mark of the idle stop and crash drills against an independent stand-in client. */
  verify?: { stop?: 'verified' | 'disputed' | 'error'; crash?: 'verified' | 'disputed' | 'error' };
}

/** Not judged is a harness result, not a finding: the worst kind wins, in this order. */
const ORDER: CellKind[] = ['could-not-start', 'leaves-processes', 'no-exit-on-eof', 'exits-late', 'stdout-not-clean', 'not-judged', 'clean'];

export function couldNotStart(reason: string): Cell {
  return { kind: 'could-not-start', text: `could not start: ${reason}`, short: 'could not start', shownBy: [], evidence: null, drill: null, diagnosis: null };
}

/** Every drill of each profile, the ones not repeated read from the drill that ran in their place (marked `sameAs`). */
export function drillsByProfile(results: RunResults, profiles: readonly ProfileName[]): Map<ProfileName, ShownDrill[]> {
  const out = new Map<ProfileName, ShownDrill[]>(profiles.map((p) => [p, []]));
  // A survey drills each profile's newest range, whose ref is its name.
  for (const d of [...results.drills, ...notRepeatedCopies(results.drills, results.notRepeated)]) out.get(d.clientProfile as ProfileName)?.push(d);
  for (const list of out.values()) list.sort((a, b) => (a.index ?? 0) - (b.index ?? 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out;
}

/** A drill of a cell: one that ran, or one not repeated, with the key of the drill that ran in its place. */
export type ShownDrill = DrillResult & { sameAs?: string };

/**
 * The profiles that abandon a server (drop it with neither EOF nor a signal, their pipes held:
 * harness/client-profiles/, `abandons`), each with its own column. A profile whose stop sequence
 * is the abandon (claude-desktop) shows its stop drills there; the others are drilled in the
 * `abandon` mode.
 */
export function abandoningProfiles(profiles: readonly ProfileName[]): ProfileName[] {
  return profiles.filter((p) => behaviourOf(p).abandons !== null);
}

export function stopAbandons(profile: ProfileName): boolean {
  return behaviourOf(profile).stop.some((step) => step.kind === 'abandon');
}

/** Whether a drill of `profile` is an abandonment: the `abandon` mode, or a stop that is one. */
export function isAbandonDrill(d: Pick<DrillResult, 'mode'>, profile: ProfileName): boolean {
  return d.mode === 'abandon' || (d.mode === 'stop' && stopAbandons(profile));
}

const resultOf = (d: DrillResult, check: string) => d.checks.find((c) => c.id === check);
const failed = (d: DrillResult, check: string) => d.checks.some((c) => c.id === check && c.verdict === 'fail');

/** A survivor as a person names it: the program's base name and its first arguments, cut short. */
export function processName(cmdline: readonly string[]): string {
  const [exe, ...rest] = cmdline;
  const words = [basename(exe ?? '?'), ...rest.slice(0, 2).map((a) => (a.startsWith('/') ? basename(a) : a))];
  // npm exec sets its process title to the package with trailing spaces where argv was.
  const text = words.join(' ').replace(/\s+/g, ' ').trim();
  return text.length > 48 ? `${text.slice(0, 47)}…` : text;
}

/**
 * The survivors a cell counts and names: those already alive when the client was lost. One the
 * server started after that (a polling loop's `sleep 0.1`) is caught by one run's snapshot and not
 * the next; the evidence keeps every one. All of them where none was alive at the loss.
 */
function lastingSurvivors(d: DrillResult): DrillResult['survivors'] {
  const data = resultOf(d, 'no-survivors')?.data as { afterMs?: number } | undefined;
  if (typeof data?.afterMs !== 'number') return d.survivors;
  const lasting = d.survivors.filter((s) => s.elapsedMs >= data.afterMs!);
  return lasting.length > 0 ? lasting : d.survivors;
}

/** A drill's lasting survivors as names, a name left by several processes counted: `sleep 300 ×2`. */
function survivorNames(d: DrillResult): string {
  const counts = new Map<string, number>();
  for (const s of lastingSurvivors(d)) {
    const name = processName(s.cmdline);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, n]) => (n === 1 ? name : `${name} ×${n}`))
    .join(', ');
}

/** Whether a drill's server, up at the exit deadline, ended by itself afterwards: no signal from anyone before its exit, not contained. */
function exitedByItself(d: DrillResult): boolean {
  const c = d.exit?.class;
  return (c === 'clean' || c === 'exit-code' || c === 'crash' || c === 'broken-pipe') && d.exit?.endedAfter === null;
}

export function cellOf(drills: readonly DrillResult[], surveyDir: string, runDir: string): Cell {
  if (drills.length === 0)
    return {
      kind: 'not-judged',
      text: 'not judged: no drill under this client',
      short: 'not judged',
      shownBy: [],
      evidence: null,
      drill: null,
      diagnosis: null,
    };
  const parts: { kind: CellKind; text: string; short: string; drills: DrillResult[] }[] = [];
  // The drill that left the most leads, so the count and the names are one drill's: another run may catch a short-lived process the first did not.
  const leaving = drills.filter((d) => failed(d, 'no-survivors')).sort((a, b) => lastingSurvivors(b).length - lastingSurvivors(a).length);
  if (leaving.length > 0) {
    const most = lastingSurvivors(leaving[0]).length;
    parts.push({
      kind: 'leaves-processes',
      text: `leaves ${most} process${most === 1 ? '' : 'es'} (${survivorNames(leaving[0])})`,
      short: `leaves ${most}`,
      drills: leaving,
    });
  }
  const staying = drills.filter((d) => failed(d, 'exit-on-eof'));
  const late = staying.filter(exitedByItself);
  const held = staying.filter((d) => !exitedByItself(d));
  if (held.length > 0) {
    const ends = [...new Set(held.map(howItEnded))].sort();
    parts.push({ kind: 'no-exit-on-eof', text: `does not exit on EOF (up at the exit deadline; ${ends.join(' / ')})`, short: 'no exit on EOF', drills: held });
  }
  // Where some drills needed a signal, the ones that got out late by themselves say nothing more (and
  // which of a slow server's drills cross the deadline varies from run to run).
  if (late.length > 0 && held.length === 0) {
    const ends = [...new Set(late.map(lateEnd))].sort();
    parts.push({ kind: 'exits-late', text: `exits on EOF only after the exit deadline (${ends.join(' / ')})`, short: 'exits late', drills: late });
  }
  const noisy = drills.filter((d) => failed(d, 'stdout-clean'));
  if (noisy.length > 0) parts.push({ kind: 'stdout-not-clean', text: 'stdout not clean', short: 'stdout not clean', drills: noisy });
  const unjudged = drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown');
  if (parts.length === 0 && unjudged.length > 0) {
    const why = [...new Set(unjudged.map((d) => d.reason))].sort()[0] ?? '';
    parts.push({ kind: 'not-judged', text: `not judged: ${why}`, short: 'not judged', drills: unjudged });
  }
  if (parts.length === 0) {
    const first = drills[0];
    return { kind: 'clean', text: 'clean', short: 'clean', shownBy: [], evidence: evidenceOf(first, surveyDir, runDir), drill: first.id, diagnosis: null };
  }
  parts.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  const lead = parts[0].drills[0];
  const d = lead.incident.diagnosis?.[0];
  return {
    kind: parts[0].kind,
    text: parts.map((p) => p.text).join('; '),
    short: parts.map((p) => p.short).join(' · '),
    shownBy: [...new Set(parts.flatMap((p) => p.drills.map(label)))],
    evidence: evidenceOf(lead, surveyDir, runDir),
    drill: lead.id,
    diagnosis: d ? { cause: d.cause, fix: d.fix, sdk: d.sdk } : null,
  };
}

/** `scenario point/mode`, without the entry's id prefix; a drill not repeated says which drill ran in its place. */
function label(d: ShownDrill): string {
  const scenario = d.scenario.slice(d.subject.name.length + 1) || d.scenario;
  return `${scenario} ${d.point}/${d.mode}${d.sameAs === undefined ? '' : ` (not repeated: the same drill as ${d.sameAs})`}`;
}

function howItEnded(d: DrillResult): string {
  const exit = d.exit;
  if (!exit) return 'its end was not seen';
  if (exit.class === 'signal') return `ended by ${exit.signal ?? 'a signal'} from ${exit.signalFrom ?? 'someone'}`;
  if (exit.class === 'did-not-exit') return 'still running, contained by the harness';
  // It handled the signal and exited with a code.
  if (exit.endedAfter !== null) return `exited after ${exit.endedAfter}`;
  return 'its end is not known';
}

/** How a server that was up at the exit deadline ended by itself. */
function lateEnd(d: DrillResult): string {
  const exit = d.exit!;
  if (exit.class === 'crash') return 'a crash';
  if (exit.class === 'broken-pipe') return 'a write to a broken pipe';
  return `exit ${exit.code ?? '?'}`;
}

function evidenceOf(d: DrillResult, surveyDir: string, runDir: string): string | null {
  return d.evidence ? relative(surveyDir, join(runDir, 'evidence', d.evidence.file)) : null;
}

/** The SDK and version read from the program (the first drill's `diagnosis-facts` at start), or why not. */
export function sdkRead(drills: readonly DrillResult[], runDir: string): string | null {
  for (const d of drills) {
    if (!d.evidence) continue;
    let text: string;
    try {
      text = readFileSync(join(runDir, 'evidence', d.evidence.file), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes('"diagnosis-facts"')) continue;
      // Each line is the event itself plus `prev` (harness/evidence/log.ts).
      const rec = JSON.parse(line) as {
        type?: string;
        runtime?: { runtime: string; sdks: { name: string; version: string | null }[]; reason?: string | null } | null;
      };
      const rt = rec.runtime;
      if (rec.type !== 'diagnosis-facts' || !rt) continue;
      const sdks = rt.sdks.map((s) => `${s.name} ${s.version ?? '(version not read)'}`);
      // The reader's reason names paths of this machine: the evidence keeps it, the table does not.
      return sdks.length > 0 ? sdks.join(', ') : `${rt.runtime}: no MCP SDK read`;
    }
  }
  return null;
}
