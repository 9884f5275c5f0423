/**
 * A diagnosis states only what its drill's evidence shows: every matrix's table
 * (truth-table.ts verdictTable) checks each drill's diagnosis sentences against the drill's own
 * facts, so no report says "0 children" beside a snapshot that lists the server's child, "the
 * server had exited" of a server the snapshot lists as a survivor, or "EOF reached it" in a drill
 * whose client never closed the server's stdin.
 */
import { behaviourOf } from '../../harness/client-profiles/profiles.js';
import type { DrillResult } from '../../harness/results/types.js';

type Drill = Pick<DrillResult, 'key' | 'mode' | 'clientProfile' | 'survivors' | 'incident'> & { exit?: DrillResult['exit'] };

/** The server's pid as the diagnoses name it: the real server behind a launcher (npx, sh -c), else the process the client started. */
function serverPid(d: Drill): number | null {
  return d.exit?.pid ?? d.incident?.server?.pid ?? null;
}

/** Whether the drill's client could have closed the server's stdin: abandon and hang never do, nor a stop with no close-stdin step while the server lived. */
function eofPossible(d: Drill, serverSurvived: boolean): boolean {
  if (d.mode === 'abandon' || d.mode === 'hang') return false;
  if (d.mode === 'stop' && serverSurvived) return behaviourOf(d.clientProfile).stop.some((s) => s.kind === 'close-stdin');
  return true;
}

/** Each sentence of the drill's diagnoses that its own evidence contradicts, with why. */
export function diagnosisContradictions(d: Drill): string[] {
  const out: string[] = [];
  const pid = serverPid(d);
  const survivors = d.survivors ?? [];
  const serverSurvived = pid !== null && survivors.some((s) => s.pid === pid);
  const serverChildren = pid === null ? [] : survivors.filter((s) => s.ppid === pid && s.pid !== pid);
  for (const g of d.incident?.diagnosis ?? []) {
    for (const sentence of [g.cause, ...g.observed]) {
      const say = (why: string) => out.push(`${d.key} ${g.check}: "${sentence.slice(0, 140)}": ${why}`);
      if (serverSurvived && /the server \(pid \d+\) had exited|the server had exited/.test(sentence)) say('the snapshot lists the server as a survivor');
      if (serverSurvived && serverChildren.length > 0 && /\b0 children\b/.test(sentence))
        say(`the snapshot lists ${serverChildren.length} live child(ren) of the server: ${serverChildren.map((c) => c.pid).join(', ')}`);
      if (/EOF reached it|the server read EOF/.test(sentence) && !eofPossible(d, serverSurvived)) say(`no EOF was sent (${d.mode} under ${d.clientProfile})`);
    }
  }
  return out;
}

/** Throws with every contradiction of the drills' diagnoses, so a matrix fails on the first table it builds. */
export function assertDiagnosesAgree(drills: readonly Drill[]): void {
  const found = drills.flatMap((d) => diagnosisContradictions(d));
  if (found.length > 0) throw new Error(`diagnoses that contradict their evidence:\n${found.join('\n')}`);
}
