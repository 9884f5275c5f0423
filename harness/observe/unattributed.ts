/**
 * The floor under every verdict: a process started during the drill that no method attributes (a
 * setsid daemon with a cleared environment, no cgroup, no live subreaper). Never signalled, but it
 * keeps a drill from `pass`.
 */
import { DRILL_ENV } from './run-ids.js';
import { readCmdline, readEnviron, readOwnerUid, type ProcStat } from './proc.js';

export type UnattributedProcess = {
  pid: number;
  startTime: number;
  ppid: number;
  sid: number;
  uid: number | null;
  cmdline: string[];
  firstSeen: number;
  reason: string;
};

const INIT_PID = 1;
const ENGINE_PARENTS = ['containerd-shim', 'conmon'];

/** Builds the test for one scan: `all` is every process of that scan, by pid. */
export function attributionProbe(drillId: string, all: Map<number, ProcStat>): (stat: ProcStat, now: number) => UnattributedProcess | null {
  const harnessPid = process.pid;
  const ownUid = typeof process.getuid === 'function' ? process.getuid() : null;
  const inHarnessTree = (pid: number): boolean => {
    const seen = new Set<number>();
    let cur = pid;
    while (cur > 0 && !seen.has(cur)) {
      if (cur === harnessPid) return true;
      seen.add(cur);
      cur = all.get(cur)?.ppid ?? 0;
    }
    return false;
  };
  return (stat, now) => {
    if (stat.state === 'Z' || stat.state === 'X') return null;
    const parent = all.get(stat.ppid);
    // A container's processes are the engine's children (containerd-shim, podman's conmon);
    // harness/containers attributes containers by label and by the drill's engine CLI.
    if (parent && ENGINE_PARENTS.some((p) => parent.comm.startsWith(p))) return null;
    let reason: string;
    if (stat.ppid === INIT_PID) reason = 'it was re-parented to init (ppid 1)';
    else if (parent && parent.sid !== stat.sid && !inHarnessTree(stat.ppid))
      reason = `its parent ${stat.ppid} (${parent.comm}) is outside the harness and in another session, as a subreaper's adopted orphan is`;
    else return null;
    if (inHarnessTree(stat.pid)) return null;
    const uid = readOwnerUid(stat.pid);
    if (ownUid !== null && ownUid !== 0 && uid !== ownUid) return null;
    const marker = readEnviron(stat.pid)?.get(DRILL_ENV);
    if (marker !== undefined && marker !== drillId) return null;
    return {
      pid: stat.pid,
      startTime: stat.startTime,
      ppid: stat.ppid,
      sid: stat.sid,
      uid,
      cmdline: readCmdline(stat.pid) ?? [],
      firstSeen: now,
      reason: `${reason}; it started during the drill, no tracking method links it to the drill, and nothing ties it to another drill`,
    };
  };
}
