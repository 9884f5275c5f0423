/**
 * Processes inside the drill's containers, invisible to the tracker (their parent is
 * containerd-shim): one running `docker run -d` over a mounted socket ties the sibling container
 * to the drill (attribute.ts). Sampled while a container runs, walking down from its first process.
 */
import { listPids, readCmdline, readStat } from '../observe/index.js';
import { isEngineRun } from './engine-cli.js';

export type InsideProcess = { pid: number; startTime: number; cmdline: string[] };

const SAMPLE_MS = 20;

export class ContainerProcessWatch {
  private readonly roots = new Set<number>();
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly onProcess: (p: InsideProcess) => void) {}

  /** Whether the 20 ms sampling runs. */
  get watching(): boolean {
    return this.timer !== null;
  }

  /** Once stopped, for good: a container still listed during containment does not start the sampling again. */
  watch(hostPid: number): void {
    if (this.stopped) return;
    this.roots.add(hostPid);
    if (!this.timer) {
      this.timer = setInterval(() => this.sample(), SAMPLE_MS);
      this.timer.unref();
    }
    this.sample();
  }

  /**
   * For good. The sampling timer is unref'd, so one left running kept no process alive but read
   * all of /proc every 20 ms for the rest of the harness's life: containment stopped it, then
   * listed the drill's containers, which started it again for every running one (a worker of the
   * suite that had run test/containers/ spent 28% of a core on it from then on).
   */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.roots.clear();
  }

  /** Every live descendant of a root (the roots themselves included). */
  sample(): void {
    const children = new Map<number, number[]>();
    const stats = new Map<number, number>();
    for (const pid of listPids()) {
      const stat = readStat(pid);
      if (!stat || stat.state === 'Z') continue;
      stats.set(pid, stat.startTime);
      const list = children.get(stat.ppid);
      if (list) list.push(pid);
      else children.set(stat.ppid, [pid]);
    }
    const queue = [...this.roots].filter((pid) => stats.has(pid));
    for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
      const startTime = stats.get(pid)!;
      const key = `${pid}:${startTime}`;
      if (!this.seen.has(key)) {
        const cmdline = readCmdline(pid);
        // Only engine CLIs are remembered: a process caught between fork and exec still shows
        // its parent's argv, so anything else is looked at again at the next sample.
        if (cmdline && isEngineRun(cmdline)) {
          this.seen.add(key);
          this.onProcess({ pid, startTime, cmdline });
        }
      }
      queue.push(...(children.get(pid) ?? []));
    }
  }
}
