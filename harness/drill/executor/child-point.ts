/**
 * Which process the `child-spawned` point fires on: the first new descendant (after the target
 * call was written) that runs a program of its own and is still alive `aliveFor` ms after that
 * was first seen, at a later sample of the tracker. "Of its own": its argv is neither the
 * server's nor the one its parent had when it was first seen, so a fork that has not exec'd yet
 * (it carries its parent's argv: Node's spawn, puppeteer's and Playwright's browser launch) is
 * not the child; and a probe that has exited by then (`python3 --version`, a version manager's
 * helper) is not either. A scenario's `child.command` or `child.pattern` narrows it to one
 * program. Fed one sample at a time, so a test can drive it without processes.
 */
import { basename } from 'node:path';
import type { ChildSpec } from '../../config/index.js';
import { identityKey, readCmdline, type ProcIdentity, type TrackedProcess } from '../../observe/index.js';

/** A new descendant, as the pick has followed it. */
interface Candidate {
  pid: number;
  startTime: number;
  argv: string[];
  /** Its parent's argv when it was first seen (what a fork that has not exec'd carries). */
  forkedAs: string[] | null;
  /** When it was first seen running a program that counts, and at which sample; null while it does not. */
  since: number | null;
  sinceSample: number;
  /** When it was seen gone, null while alive. */
  goneAt: number | null;
}

/** The process the point fired on. */
export interface PickedChild {
  pid: number;
  startTime: number;
  cmdline: string[];
  /** How long it had been seen running that program when the point fired, ms. */
  aliveMs: number;
}

export type ReadArgv = (pid: number) => string[] | null;

export class ChildPick {
  private readonly candidates = new Map<string, Candidate>();
  private samples = 0;
  /** The server's argv as last seen alive. */
  private serverArgv: string[] | null = null;
  private lastAt = 0;

  constructor(
    private readonly spec: ChildSpec,
    /** Identities of every member before the call was written: none of them is the call's child. */
    private readonly known: ReadonlySet<string>,
    /** The server, whose forks carry its argv until they exec. */
    private readonly server: () => ProcIdentity | null,
    /** A fresh read of a process's argv: the tracker re-reads it only for a while after it first saw it. */
    private readonly readArgv: ReadArgv = readCmdline,
  ) {}

  /**
   * One sample of the drill's live members at `now` (ms, monotonic). Returns the child once one
   * has been alive, running a program that counts, for the window; null until then.
   */
  see(live: readonly TrackedProcess[], now: number): PickedChild | null {
    this.samples++;
    this.lastAt = now;
    const byPid = new Map(live.map((p) => [p.pid, p]));
    const server = this.server();
    const serverProc = server ? byPid.get(server.pid) : undefined;
    if (serverProc && serverProc.startTime === server?.startTime) this.serverArgv = serverProc.cmdline;
    const alive = new Set<string>();
    for (const p of live) {
      const key = identityKey(p);
      if (this.known.has(key)) continue;
      alive.add(key);
      let c = this.candidates.get(key);
      if (!c) {
        c = { pid: p.pid, startTime: p.startTime, argv: p.cmdline, forkedAs: byPid.get(p.ppid)?.cmdline ?? null, since: null, sinceSample: 0, goneAt: null };
        this.candidates.set(key, c);
      }
      const argv = this.readArgv(p.pid);
      if (argv !== null && argv.length > 0) c.argv = argv;
      if (this.counts(c)) {
        if (c.since === null) {
          c.since = now;
          c.sinceSample = this.samples;
        }
      } else {
        c.since = null;
      }
    }
    for (const [key, c] of this.candidates) if (c.goneAt === null && !alive.has(key)) c.goneAt = now;
    let best: Candidate | null = null;
    for (const c of this.candidates.values()) {
      if (c.goneAt !== null || c.since === null || c.sinceSample >= this.samples || now - c.since < this.spec.aliveFor) continue;
      if (!best || c.since < best.since! || (c.since === best.since && (c.startTime < best.startTime || (c.startTime === best.startTime && c.pid < best.pid))))
        best = c;
    }
    return best ? { pid: best.pid, startTime: best.startTime, cmdline: [...best.argv], aliveMs: Math.round(now - best.since!) } : null;
  }

  /** Why no child was picked (yet): what the new descendants were, a few of them. */
  whyNot(): string {
    const all = [...this.candidates.values()];
    if (all.length === 0) return 'no new descendant appeared after the target call was dispatched';
    const shown = all.slice(0, 3).map((c) => `pid ${c.pid} (${short(c.argv)}) ${this.fate(c)}`);
    const more = all.length > 3 ? `, and ${all.length - 3} more` : '';
    return `no new descendant ran ${this.wanted()} for ${this.spec.aliveFor} ms: ${shown.join('; ')}${more}`;
  }

  private fate(c: Candidate): string {
    if (c.since !== null)
      return c.goneAt === null
        ? `had run it for ${Math.round(this.lastAt - c.since)} ms`
        : `exited ${Math.round(c.goneAt - c.since)} ms after its exec was seen`;
    if (!this.execed(c)) return c.goneAt === null ? "still ran its parent's command line (a fork that had not exec'd)" : 'exited without an exec of its own';
    return `is not ${this.wanted()}`;
  }

  private wanted(): string {
    if (this.spec.command !== null) return `\`${this.spec.command}\``;
    if (this.spec.pattern !== null) return `a command matching /${this.spec.pattern}/`;
    return 'a program of its own';
  }

  private counts(c: Candidate): boolean {
    return this.execed(c) && this.matches(c.argv);
  }

  private execed(c: Candidate): boolean {
    if (c.argv.length === 0) return false;
    return !(this.serverArgv && sameArgv(c.argv, this.serverArgv)) && !(c.forkedAs && sameArgv(c.argv, c.forkedAs));
  }

  private matches(argv: string[]): boolean {
    if (this.spec.command !== null) return argv[0] === this.spec.command || basename(argv[0]) === this.spec.command;
    if (this.spec.pattern !== null) return new RegExp(this.spec.pattern).test(argv.join(' '));
    return true;
  }
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** A command line as a reason shows it: joined, cut to 60 characters. */
export function short(argv: readonly string[]): string {
  const s = argv.join(' ');
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}
