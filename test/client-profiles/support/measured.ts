/**
 * The measured ground truth of the client profiles (bench/client-profiles/measured.json): who
 * survived each server under each profile, stop and crash, as npm run bench:client-profiles
 * measured it with clients that are not the harness's code. One file that the docs' tables
 * (docs/client-profiles.md) are checked against and that the drill's matrix is derived from,
 * so the two cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProfileRef } from '../../../harness/client-profiles/profiles.js';
import { packageRoot } from '../../../harness/util/paths.js';

export type Situation = 'stop' | 'crash';
/** Server row -> profile -> cell ("none", "helper", "child + helper + server", ...). */
export type Table = Record<string, Record<string, string>>;

export interface Measured {
  /** Every profile ref drilled (harness/client-profiles/profiles.ts PROFILE_REFS): a range of a client's versions each. */
  profiles: ProfileRef[];
  stop: Table;
  crash: Table;
}

export const MEASURED_FILE = join(packageRoot(), 'bench/client-profiles/measured.json');
export const DOCS_FILE = join(packageRoot(), 'docs/client-profiles.md');
/** The real published server's row (test/real/falconer-mcp.e2e.test.ts drills it). */
export const REAL_ROW = '@falconer/mcp@0.2.1 in unshare -n';

export function measured(): Measured {
  const data = JSON.parse(readFileSync(MEASURED_FILE, 'utf8')) as Measured & { _what?: string };
  return { profiles: data.profiles, stop: data.stop, crash: data.crash };
}

/** The fakes of the measured tables (every row but the real server's), in the docs' order. */
export function measuredFakes(): string[] {
  return Object.keys(measured().stop).filter((row) => row !== REAL_ROW);
}

/** A measured cell as the drill's no-survivors verdict: nothing survived is a pass, anything else a fail. */
export function noSurvivorsVerdict(cell: string): 'pass' | 'fail' {
  return cell === 'none' ? 'pass' : 'fail';
}

/**
 * The docs' measured tables as written: `#### stop: ...` and `#### crash: ...`, each continued by
 * tables headed `#### stop, <more>: ...` and `#### crash, <more>: ...` with further profiles'
 * columns for the same rows, merged into one table per situation.
 */
export function docsTables(text: string): { profiles: string[]; stop: Table; crash: Table } {
  const table = (at: number): { profiles: string[]; rows: Table } => {
    const lines = text.slice(at).split('\n').slice(1);
    const start = lines.findIndex((l) => l.startsWith('|'));
    const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
    const cells = lines.slice(start, end).map((l) =>
      l
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
    const profiles = cells[0].slice(1);
    const rows: Table = {};
    for (const row of cells.slice(2)) rows[row[0]] = Object.fromEntries(profiles.map((p, i) => [p, row[i + 1]]));
    return { profiles, rows };
  };
  const merged = (situation: Situation): { profiles: string[]; rows: Table } => {
    const starts = [...text.matchAll(new RegExp(`^#### ${situation}[:,]`, 'gm'))].map((m) => m.index);
    if (starts.length === 0) throw new Error(`docs/client-profiles.md has no "#### ${situation}:" table`);
    const out: { profiles: string[]; rows: Table } = { profiles: [], rows: {} };
    for (const at of starts) {
      const part = table(at);
      out.profiles.push(...part.profiles);
      for (const [row, cells] of Object.entries(part.rows)) out.rows[row] = { ...out.rows[row], ...cells };
    }
    return out;
  };
  const stop = merged('stop');
  const crash = merged('crash');
  if (stop.profiles.join() !== crash.profiles.join()) throw new Error('the stop and crash tables name different profiles');
  return { profiles: stop.profiles, stop: stop.rows, crash: crash.rows };
}
