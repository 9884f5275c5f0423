/**
 * Who belongs to a drill, from one scan of /proc, by any method of TrackedProcess.foundBy: parent
 * links alone miss anything whose middle parent already exited. Nothing older than the root is a member.
 */
import { decodeWaitStatus, type ExitStatus } from './exit-status.js';
import { identityKey, type ProcIdentity } from './identity.js';
import { isKernelThread, readCmdline, readEnviron, readStat, type ProcStat } from './proc.js';
import type { ProcTable } from './proc-table.js';
import { DRILL_ENV } from './run-ids.js';
import { attributionProbe, type UnattributedProcess } from './unattributed.js';

export type TrackedProcess = {
  pid: number;
  startTime: number;
  ppid: number;
  pgid: number;
  sid: number;
  comm: string;
  cmdline: string[];
  /** monoNow() of the sample (or watch) that first saw it. */
  firstSeen: number;
  /** monoNow() when its exit was noticed (zombie or gone), null while it lives. */
  exitedAt: number | null;
  /** Every method that matched it in any sample; 'root' for the drill's root. */
  foundBy: string[];
  /** Decoded from the zombie's wait status when a sample or watch caught it as a zombie. */
  exitStatus?: ExitStatus;
};

export type ScanResult = {
  added: TrackedProcess[];
  exited: TrackedProcess[];
  /** Members whose parent changed since the last scan, with the old ppid (a dead parent's orphans). */
  reparented: [TrackedProcess, number][];
  /** Members whose argv changed since it was first read (a fork seen before its exec, then the exec). */
  execed: TrackedProcess[];
  unattributed: UnattributedProcess[];
};

export type ScanOptions = {
  /** Pids in the drill cgroup, or null when the drill has no cgroup. */
  cgroupPids: Set<number> | null;
  /** Look for processes no method can attribute (unattributed.ts); only needed with neither a cgroup nor a live subreaper. */
  floor: boolean;
};

/** Re-read argv for this long after discovery: a fresh fork still shows its parent's argv until it execs. */
const CMDLINE_SETTLE_MS = 1000;

export class MembershipScanner {
  private readonly drillId: string;
  private readonly root: ProcIdentity;
  private readonly byKey = new Map<string, TrackedProcess>();
  /** The latest member per pid, for numeric lookups in the hot loop (no key strings). */
  private readonly byPid = new Map<number, TrackedProcess>();
  /** Env-marker verdicts per identity: environ is read once per process. */
  private readonly envVerdict = new Map<number, { startTime: number; marked: boolean }>();
  /** pgid / sid values led by a member, kept while the group or session is still populated. */
  private readonly groups = new Set<number>();
  private readonly sessions = new Set<number>();
  /** The drill's holders (child subreapers), pid -> start time. */
  private readonly subreapers = new Map<number, number>();
  /** Holders seen alive in the latest scan. */
  private liveSubreapers = new Set<number>();
  /** Unattributed processes already reported, by identity. */
  private readonly unattributedSeen = new Set<string>();

  constructor(drillId: string, root: ProcIdentity) {
    this.drillId = drillId;
    this.root = root;
  }

  members(): TrackedProcess[] {
    return [...this.byKey.values()];
  }

  get(id: ProcIdentity): TrackedProcess | undefined {
    return this.byKey.get(identityKey(id));
  }

  addSubreaper(id: ProcIdentity): void {
    this.subreapers.set(id.pid, id.startTime);
    if (readStat(id.pid)?.startTime === id.startTime) this.liveSubreapers.add(id.pid);
  }

  /** The pids this drill needs re-read at every sample (proc-table.ts): live members and holders. */
  watched(): number[] {
    const pids = [...this.subreapers.keys()];
    for (const member of this.byKey.values()) if (member.exitedAt === null) pids.push(member.pid);
    return pids;
  }

  /** True while at least one of the drill's holders was alive at the latest scan. */
  subreaperAlive(): boolean {
    return this.liveSubreapers.size > 0;
  }

  /** One full scan of a table of the whole machine (proc-table.ts), read at `table.at`. */
  scan(table: ProcTable, opts: ScanOptions): ScanResult {
    const { cgroupPids } = opts;
    const now = table.at;
    const all = table.stats;
    const stats = new Map<number, ProcStat>();
    const pgidsInUse = new Set<number>();
    const sidsInUse = new Set<number>();
    const liveSubreapers = new Set<number>();
    for (const [pid, stat] of all) {
      pgidsInUse.add(stat.pgid);
      sidsInUse.add(stat.sid);
      if (this.subreapers.get(pid) === stat.startTime && stat.state !== 'Z' && stat.state !== 'X') liveSubreapers.add(pid);
      if (stat.startTime < this.root.startTime || isKernelThread(stat)) continue;
      stats.set(pid, stat);
    }
    this.liveSubreapers = liveSubreapers;

    const exited: TrackedProcess[] = [];
    const reparented: [TrackedProcess, number][] = [];
    const execed: TrackedProcess[] = [];
    for (const member of this.byKey.values()) {
      const stat = stats.get(member.pid);
      const present = stat !== undefined && stat.startTime === member.startTime;
      if (present && member.exitedAt === null && stat.ppid !== member.ppid) reparented.push([member, member.ppid]);
      if (present && this.refresh(member, stat, now, cgroupPids, stats)) execed.push(member);
      if (member.exitedAt !== null) continue;
      if (!present || stat.state === 'X') {
        member.exitedAt = now;
        exited.push(member);
      } else if (stat.state === 'Z') {
        member.exitedAt = now;
        member.exitStatus = decodeWaitStatus(stat.exitCode);
        exited.push(member);
      }
    }

    // A group or session id cannot be reused as a pid while any process still carries it, so a
    // member-led group stays the drill's for as long as it is populated.
    for (const g of this.groups) if (!pgidsInUse.has(g)) this.groups.delete(g);
    for (const s of this.sessions) if (!sidsInUse.has(s)) this.sessions.delete(s);

    const added: TrackedProcess[] = [];
    let candidates: ProcStat[] = [];
    for (const stat of stats.values()) if (!this.isMember(stat)) candidates.push(stat);
    // Iterate to a fixed point: a child may be listed before the parent that makes it a member.
    while (candidates.length > 0) {
      const matched: [ProcStat, string[]][] = [];
      const rest: ProcStat[] = [];
      for (const stat of candidates) {
        const methods = this.match(stat, cgroupPids, stats);
        if (methods.length > 0) matched.push([stat, methods]);
        else rest.push(stat);
      }
      if (matched.length === 0) break;
      matched.sort(([a], [b]) => a.startTime - b.startTime || a.pid - b.pid);
      for (const [stat, methods] of matched) added.push(this.admit(stat, methods, now));
      candidates = rest;
    }
    const unattributed: UnattributedProcess[] = [];
    if (opts.floor) {
      const probe = attributionProbe(this.drillId, all);
      for (const stat of candidates) {
        const key = identityKey(stat);
        if (this.unattributedSeen.has(key)) continue;
        const found = probe(stat, now);
        if (found === null) continue;
        this.unattributedSeen.add(key);
        unattributed.push(found);
      }
    }
    return { added, exited, reparented, execed, unattributed };
  }

  /** Add a member found outside a scan (the root, or one seen by a watch). */
  admit(stat: ProcStat, methods: string[], now: number): TrackedProcess {
    const member: TrackedProcess = {
      pid: stat.pid,
      startTime: stat.startTime,
      ppid: stat.ppid,
      pgid: stat.pgid,
      sid: stat.sid,
      comm: stat.comm,
      cmdline: readCmdline(stat.pid) ?? [],
      firstSeen: now,
      exitedAt: null,
      foundBy: [...methods],
    };
    if (stat.state === 'Z' || stat.state === 'X') {
      member.exitedAt = now;
      if (stat.state === 'Z') member.exitStatus = decodeWaitStatus(stat.exitCode);
    }
    this.byKey.set(identityKey(stat), member);
    this.byPid.set(stat.pid, member);
    if (stat.pgid === stat.pid) this.groups.add(stat.pgid);
    if (stat.sid === stat.pid) this.sessions.add(stat.sid);
    return member;
  }

  private match(stat: ProcStat, cgroupPids: Set<number> | null, stats: Map<number, ProcStat>): string[] {
    const methods: string[] = [];
    if (cgroupPids?.has(stat.pid)) methods.push('cgroup');
    if (this.hasMarker(stat)) methods.push('env-marker');
    if (this.parentIsMember(stat, stats)) methods.push('parent-links');
    if (stat.pgid !== stat.pid && this.groups.has(stat.pgid)) methods.push('process-group');
    if (stat.sid !== stat.pid && this.sessions.has(stat.sid)) methods.push('session');
    if (this.liveSubreapers.has(stat.ppid)) methods.push('subreaper');
    return methods;
  }

  private isMember(stat: ProcStat): boolean {
    return this.byPid.get(stat.pid)?.startTime === stat.startTime;
  }

  private hasMarker(stat: ProcStat): boolean {
    const cached = this.envVerdict.get(stat.pid);
    if (cached !== undefined && cached.startTime === stat.startTime) return cached.marked;
    const marked = readEnviron(stat.pid)?.get(DRILL_ENV) === this.drillId;
    this.envVerdict.set(stat.pid, { startTime: stat.startTime, marked });
    return marked;
  }

  /** The parent is a member still in the table, alive or a zombie: a zombie's pid cannot be reused while listed. */
  private parentIsMember(stat: ProcStat, stats: Map<number, ProcStat>): boolean {
    const parent = stats.get(stat.ppid);
    if (parent === undefined || parent.state === 'X') return false;
    const member = this.byPid.get(parent.pid);
    return member !== undefined && member.startTime === parent.startTime;
  }

  /** Updates a member from its stat; true when its argv changed. */
  private refresh(member: TrackedProcess, stat: ProcStat, now: number, cgroupPids: Set<number> | null, stats: Map<number, ProcStat>): boolean {
    member.ppid = stat.ppid;
    member.pgid = stat.pgid;
    member.sid = stat.sid;
    // setsid/setpgid after discovery: the member may now lead a group or session of its own.
    if (stat.pgid === stat.pid) this.groups.add(stat.pgid);
    if (stat.sid === stat.pid) this.sessions.add(stat.sid);
    const execed = stat.comm !== member.comm;
    member.comm = stat.comm;
    let changed = false;
    if (stat.state !== 'Z' && (execed || now - member.firstSeen < CMDLINE_SETTLE_MS)) {
      const argv = readCmdline(stat.pid);
      if (argv !== null && argv.length > 0 && argv.join('\0') !== member.cmdline.join('\0')) {
        member.cmdline = argv;
        changed = true;
      }
    }
    if (member.foundBy.includes('root')) return changed;
    for (const method of this.match(stat, cgroupPids, stats)) {
      if (!member.foundBy.includes(method)) member.foundBy.push(method);
    }
    return changed;
  }
}
