/** The ps + lsof backend (macOS; `--backend ps-lsof` on Linux to compare); what the tools cannot show goes in blindSpots. */
import { spawnSync } from 'node:child_process';
import { UserError } from '../util/errors.js';
import { parseLsof, type LsofFile } from './lsof-output.js';
import { envNamesAfter, envValueAfter, parsePsLine, psColumns } from './ps-output.js';
import type { Backend, DescriptorHolder, ProcessEntry } from './types.js';

const LINUX = process.platform === 'linux';
// Not the memory maps, program text and working folders: lsof's bulk, and no descriptor.
const NOT_FDS = '^mem,^txt,^cwd,^rtd,^DEL';
const LSOF_FIELDS = '-Fpfatidn' + 'PT';

/** ps or lsof is not on this machine, or would not run: the user's environment (exit 3), named with the tool. */
export class BackendToolError extends UserError {
  readonly code = 'CRASH_DRILL_BACKEND_TOOL';
}

function run(command: string, args: string[]): string {
  const r = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    throw new BackendToolError(
      code === 'ENOENT'
        ? `${command} is not installed: the ps + lsof backend needs it (where there is a /proc, --backend proc does not)`
        : `${command} failed: ${r.error.message}`,
    );
  }
  // lsof exits 1 when some process could not be read; what it did read is still right.
  return r.stdout;
}

function lsof(args: string[]): LsofFile[] {
  // +E on Linux names the peer of each unix socket and pipe; macOS names peers without it.
  return parseLsof(run('lsof', ['-nP', ...(LINUX ? ['+E'] : []), LSOF_FIELDS, ...args]));
}

function processes(pids?: readonly number[]): ProcessEntry[] {
  const args = pids ? ['-ww', '-o', psColumns(LINUX), '-p', pids.join(',')] : ['-axww', '-o', psColumns(LINUX)];
  return run('ps', args)
    .split('\n')
    .map((line) => parsePsLine(line, LINUX))
    .filter((p): p is ProcessEntry => p !== null);
}

/** `ps e` (procps) / `ps -E` (BSD): the environment after the command, one line per process. */
function envLines(pids: readonly number[]): Map<number, { line: string; command: string }> {
  const out = new Map<number, { line: string; command: string }>();
  if (pids.length === 0) return out;
  const list = pids.join(',');
  const plain = run('ps', ['-ww', '-o', 'pid=,command=', '-p', list]).split('\n');
  const withEnv = run('ps', LINUX ? ['eww', '-o', 'pid=,command=', '-p', list] : ['-Eww', '-o', 'pid=,command=', '-p', list]).split('\n');
  const commands = new Map(
    plain
      .map((l) => /^\s*(\d+)\s(.*)$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [Number(m![1]), m![2]!.trim()] as const),
  );
  for (const l of withEnv) {
    const m = /^\s*(\d+)\s(.*)$/.exec(l);
    if (m) out.set(Number(m[1]), { line: m[2]!, command: commands.get(Number(m[1])) ?? '' });
  }
  return out;
}

/** One lsof of the whole machine per look: it costs about as much as one per-process call (docs/measurements.md). */
let machine: Map<number, LsofFile[]> | null = null;

function files(pid: number): LsofFile[] | null {
  if (machine === null) {
    machine = new Map();
    for (const f of lsof(['-d', NOT_FDS])) {
      const list = machine.get(f.pid) ?? [];
      machine.set(f.pid, list);
      if (!list.some((g) => g.fd === f.fd)) list.push(f);
    }
  }
  return machine.get(pid) ?? null;
}

const strip = ({ pid: _pid, ...d }: LsofFile) => d;

export const psLsofBackend: Backend = {
  name: 'ps-lsof',
  blindSpots: [
    'ps shows the command line as one string: argv boundaries are not known',
    'ps shows start times in whole seconds',
    'lsof does not show how many bytes wait unread on a unix socket: the pending-output rule of client-stuck cannot apply',
    'ps and lsof show no I/O counters: a server its client started again cannot be shown idle, so none is called superseded',
    ...(LINUX ? [] : ['macOS ps has no session id column: sid is not shown']),
  ],
  processes() {
    machine = null;
    return processes();
  },
  process: (pid) => processes([pid])[0] ?? null,
  stdio: (pid) =>
    files(pid)
      ?.filter((f) => f.fd <= 2)
      .map(strip) ?? null,
  descriptors: (pid) =>
    files(pid)
      ?.map(strip)
      .sort((a, b) => a.fd - b.fd) ?? null,
  holders() {
    const byObject = new Map<string, DescriptorHolder[]>();
    const peers = new Map<string, string>();
    if (machine === null) files(0);
    for (const f of [...machine!.values()].flat()) {
      if (f.kind !== 'pipe' && f.kind !== 'socket') continue;
      const list = byObject.get(f.object) ?? [];
      byObject.set(f.object, list);
      if (!list.some((h) => h.pid === f.pid && h.fd === f.fd)) list.push({ pid: f.pid, fd: f.fd, access: f.access });
      if (f.peer) peers.set(f.object, f.peer);
    }
    return { byObject, peers, unread: null, peersUnavailable: null };
  },
  environNames(pid) {
    const e = envLines([pid]).get(pid);
    return e ? envNamesAfter(e.line, e.command) : null;
  },
  environValue(pid, name) {
    const e = envLines([pid]).get(pid);
    return e ? envValueAfter(e.line, e.command, name) : null;
  },
  environValues(pids, name) {
    const out = new Map<number, string>();
    if (pids.length === 0) return out;
    for (const [pid, e] of envLines(pids)) {
      const v = envValueAfter(e.line, e.command, name);
      if (v !== null) out.set(pid, v);
    }
    return out;
  },
};
