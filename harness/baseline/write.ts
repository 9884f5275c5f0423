/**
 * Writing a baseline file: whole or not at all (a temp file, then a rename), one entry a line
 * sorted by drill and check so a change reads as a small diff, reasons people wrote kept.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BaselineEntryInfo, BaselineStatementInfo, DrillResult, NotRepeatedDrill } from '../results/types.js';
import { ranAsMap } from './apply.js';
import { collectEntries } from './collect.js';
import { entryKey, type Baseline } from './load.js';
import { BASELINE_VERSION } from './schema.js';

export interface BaselineUpdate {
  entries: BaselineEntryInfo[];
  added: number;
  removed: number;
}

/**
 * The entries after these drills: what did not pass (old reasons kept), plus old entries of drills
 * that did not run; a drill left out as not repeated takes the entries of the one that ran (apply.ts).
 */
export function updatedEntries(old: Baseline | null, drills: Iterable<DrillResult>, notRepeated: readonly NotRepeatedDrill[] = []): BaselineUpdate {
  const previous = old?.entries ?? [];
  const ranAs = ranAsMap(notRepeated);
  // A reason people wrote for a drill left out is the reason of the drill that ran in its place, unless that one has its own.
  const reasons = new Map(previous.map((e) => [entryKey({ ...e, drill: ranAs.get(e.drill) ?? e.drill }), e.reason]));
  for (const e of previous) reasons.set(entryKey(e), e.reason);
  const fresh = collectEntries(drills, reasons);
  const ranKeys = new Set<string>();
  for (const d of drills) ranKeys.add(d.key);
  const ran = { has: (key: string) => ranKeys.has(ranAs.get(key) ?? key) };
  const kept = previous.filter((e) => !ran.has(e.drill));
  const before = new Set(previous.map(entryKey));
  const after = new Set(fresh.map(entryKey));
  return {
    entries: sortEntries([...kept, ...fresh]),
    added: fresh.filter((e) => !before.has(entryKey(e))).length,
    removed: previous.filter((e) => ran.has(e.drill) && !after.has(entryKey(e))).length,
  };
}

export function sortEntries(entries: readonly BaselineEntryInfo[]): BaselineEntryInfo[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort((a, b) => cmp(a.drill, b.drill) || cmp(a.check ?? '', b.check ?? ''));
}

export function baselineText(entries: readonly BaselineEntryInfo[], statements: readonly BaselineStatementInfo[] = []): string {
  const lines = entries.map((e) => `    ${JSON.stringify({ drill: e.drill, check: e.check, verdict: e.verdict, reason: e.reason })}`);
  // Cleanup-expectation statements (harness/expectation/baseline.ts), written only when there are some.
  const said = statements.map(
    (e) => `    ${JSON.stringify({ server: e.server, statement: e.statement, ...(e.profile ? { profile: e.profile } : {}), reason: e.reason })}`,
  );
  const more = said.length ? `,\n  "statements": [\n${said.join(',\n')}\n  ]` : '';
  return `{\n  "version": ${BASELINE_VERSION},\n  "entries": [${lines.length ? `\n${lines.join(',\n')}\n  ` : ''}]${more}\n}\n`;
}

export function writeBaseline(file: string, entries: readonly BaselineEntryInfo[], statements: readonly BaselineStatementInfo[] = []): void {
  const abs = path.resolve(file);
  mkdirSync(path.dirname(abs), { recursive: true });
  const tmp = `${abs}.${process.pid}.tmp`;
  writeFileSync(tmp, baselineText(entries, statements));
  renameSync(tmp, abs);
}
