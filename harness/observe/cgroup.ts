/**
 * One cgroup v2 directory per drill: membership is inherited and survives re-parenting, setsid
 * and a cleared environment (cgroups(7)). Needs root or a delegated subtree; degrades to "not available".
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcIdentity } from './identity.js';
import { readMounts, readStat } from './proc.js';

export type CgroupSupport = { available: boolean; root?: string; reason?: string };

const PARENT = 'crash-drill';
let cached: CgroupSupport | undefined;

/** The cgroup2 mount point: /sys/fs/cgroup on a pure v2 machine, .../unified on a hybrid one. */
export function findCgroup2Mount(mountsText?: string): string | null {
  let text = mountsText;
  if (text === undefined) {
    text = readMounts() ?? undefined;
    if (text === undefined) return null;
  }
  const mounts = text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f[2] === 'cgroup2')
    .map((f) => (f[1] ?? '').replace(/\\040/g, ' '));
  if (mounts.includes('/sys/fs/cgroup')) return '/sys/fs/cgroup';
  return mounts[0] ?? null;
}

/** Probed once per process: create and remove a probe cgroup. Never throws. */
export function cgroupSupport(): CgroupSupport {
  if (cached) return cached;
  cached = probe();
  return cached;
}

function probe(): CgroupSupport {
  if (process.platform !== 'linux') return { available: false, reason: `cgroups need Linux (this is ${process.platform})` };
  const mount = findCgroup2Mount();
  if (mount === null) return { available: false, reason: 'no cgroup2 mount in /proc/mounts' };
  const root = join(mount, PARENT);
  const probeDir = join(root, `probe-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(root, { recursive: true });
    mkdirSync(probeDir);
    accessSync(join(probeDir, 'cgroup.procs'), constants.W_OK);
    rmdirSync(probeDir);
    return { available: true, root };
  } catch (err) {
    try {
      rmdirSync(probeDir);
    } catch {
      // never created
    }
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return { available: false, root, reason: `cannot create a cgroup under ${root} (${code}); running unprivileged?` };
  }
}

/** cgroup names are path components; keep drill ids to a safe alphabet. */
function safeName(drillId: string): string {
  return drillId.replace(/[^A-Za-z0-9._-]/g, '_');
}

export class DrillCgroup {
  readonly drillId: string;
  readonly path: string;

  constructor(drillId: string, path: string) {
    this.drillId = drillId;
    this.path = path;
  }

  /** Move a process in. With an identity, the start time is re-checked first. */
  addPid(target: number | ProcIdentity): boolean {
    const pid = typeof target === 'number' ? target : target.pid;
    if (typeof target !== 'number') {
      const stat = readStat(pid);
      if (stat === null || stat.startTime !== target.startTime || stat.state === 'Z') return false;
    }
    try {
      writeFileSync(join(this.path, 'cgroup.procs'), `${pid}\n`);
      return true;
    } catch {
      return false;
    }
  }

  /** Live members. Zombies are not listed: the kernel unlinks a task at exit (cgroup_exit). */
  pids(): number[] {
    try {
      return readFileSync(join(this.path, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map(Number);
    } catch {
      return [];
    }
  }

  populated(): boolean {
    try {
      return /^populated 1$/m.test(readFileSync(join(this.path, 'cgroup.events'), 'utf8'));
    } catch {
      return false;
    }
  }

  /** cpu.stat's usage_usec: kept for every cgroup (no cpu controller needed), exited processes included; null when unreadable. */
  cpuUsageUsec(): number | null {
    try {
      const m = /^usage_usec (\d+)$/m.exec(readFileSync(join(this.path, 'cpu.stat'), 'utf8'));
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  }

  exists(): boolean {
    return existsSync(this.path);
  }

  /** SIGKILL to every process in the cgroup at once (cgroup.kill, Linux 5.14+). */
  kill(): boolean {
    const file = join(this.path, 'cgroup.kill');
    if (!existsSync(file)) return false;
    try {
      writeFileSync(file, '1');
      return true;
    } catch {
      return false;
    }
  }

  /** rmdir; the kernel refuses (EBUSY) while a process is inside, and so do we. */
  remove(): boolean {
    try {
      rmdirSync(this.path);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT';
    }
  }

  /** Resolves true once no process is left inside (at once when none is), false after `timeoutMs`. */
  whenEmpty(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe();
        resolve(false);
      }, timeoutMs);
      const unsubscribe = this.onEmpty(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Calls cb once when the cgroup has no process left; cgroup.events is modified when `populated` changes (Documentation/admin-guide/cgroup-v2.rst). */
  onEmpty(cb: () => void): () => void {
    let done = false;
    const fire = (): void => {
      if (done || this.populated()) return;
      done = true;
      stop();
      cb();
    };
    let watcher: ReturnType<typeof watch> | null = null;
    try {
      watcher = watch(join(this.path, 'cgroup.events'), { persistent: false }, fire);
      watcher.on('error', () => stop());
    } catch {
      watcher = null;
    }
    function stop(): void {
      watcher?.close();
      watcher = null;
    }
    queueMicrotask(fire);
    return () => {
      done = true;
      stop();
    };
  }
}

export function createDrillCgroup(drillId: string): DrillCgroup | null {
  const support = cgroupSupport();
  if (!support.available || support.root === undefined) return null;
  const path = join(support.root, safeName(drillId));
  try {
    mkdirSync(path, { recursive: true });
    return new DrillCgroup(drillId, path);
  } catch {
    return null;
  }
}

export function listDrillCgroups(): DrillCgroup[] {
  const support = cgroupSupport();
  if (!support.available || support.root === undefined) return [];
  const out: DrillCgroup[] = [];
  let entries;
  try {
    entries = readdirSync(support.root, { withFileTypes: true });
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (entry.isDirectory() && !entry.name.startsWith('probe-')) {
      out.push(new DrillCgroup(entry.name, join(support.root, entry.name)));
    }
  }
  return out;
}
