/**
 * The processes of drills, found by their marker: every drill process carries CRASH_DRILL_RUN
 * (harness/observe/run-ids.ts) unless it cleared its environment. Read with the product's
 * /proc reader (harness/observe/proc.ts); a zombie has exited and is not listed.
 */
import { identify, type ProcIdentity } from '../../harness/observe/identity.js';
import { listPids, readCmdline, readEnviron, readStat } from '../../harness/observe/proc.js';
import { SUITE_ENV } from '../../harness/observe/run-ids.js';

export interface MarkedProcess {
  pid: number;
  marker: string;
  cmdline: string;
}

const live = (pid: number): boolean => {
  const state = readStat(pid)?.state;
  return state !== undefined && state !== 'Z';
};

/**
 * Every process on the machine whose environment carries CRASH_DRILL_RUN (optionally of one run,
 * or only those that also carry this suite's CRASH_DRILL_SUITE, suite-tmp.ts).
 */
export function markedProcesses(runId?: string, opts: { suite?: string } = {}): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const pid of listPids()) {
    if (!live(pid)) continue;
    const environ = readEnviron(pid);
    const marker = environ?.get('CRASH_DRILL_RUN');
    if (marker === undefined) continue;
    if (runId && !marker.startsWith(`${runId}.`)) continue;
    if (opts.suite !== undefined && environ?.get(SUITE_ENV) !== opts.suite) continue;
    const argv = readCmdline(pid);
    if (argv === null) continue; // gone meanwhile
    found.push({ pid, marker, cmdline: argv.join(' ').trim() });
  }
  return found;
}

/**
 * The command lines of the live processes that are a run's sentinel (harness/registry/sentinel.ts):
 * they name dist/bin/sentinel.js and the run id, whether perl waits in front or Node alone.
 */
export function sentinelProcesses(runId: string): Array<{ pid: number; argv: string[] }> {
  const found: Array<{ pid: number; argv: string[] }> = [];
  for (const pid of listPids()) {
    if (!live(pid)) continue;
    const argv = readCmdline(pid);
    if (argv?.some((a) => a.endsWith('bin/sentinel.js')) && argv.includes(runId)) found.push({ pid, argv });
  }
  return found;
}

/**
 * The live children of a process, by identity (pid and start time). A run's holders and its
 * sentinel are its harness's children, and after the harness is killed they are what still writes
 * the run's watchdog record: each appends what it ended, then exits.
 */
export function childrenOf(parent: number): ProcIdentity[] {
  return listPids()
    .filter((pid) => live(pid) && readStat(pid)?.ppid === parent)
    .map((pid) => identify(pid))
    .filter((id): id is ProcIdentity => id !== null);
}
