/**
 * The machine's process table, read once per tick for every drill of the harness process.
 *
 * Each drill's tracker needs the stat line of every process on the machine at each sample (a
 * member is found by its links to other processes, which may be anywhere). Read per tracker,
 * sixteen drills in flight read /proc sixteen times per tick: at 20 ms that is most of the
 * harness's CPU (issue 12). Here the trackers with the same interval share one ticker and one
 * read: the table is read once, then handed to each of them in turn. A tracker that needs the
 * table now (sampleNow() outside the tick) reads it afresh, and that read is shared too.
 */
import { monoNow } from '../util/clock.js';
import { listPids, readStat, type ProcStat } from './proc.js';

export type ProcTable = {
  /** monoNow() when the read began. */
  at: number;
  stats: Map<number, ProcStat>;
};

let latest: ProcTable | null = null;
let reads = 0;

/** Read the whole table now. */
export function readProcTable(): ProcTable {
  const at = monoNow();
  const stats = new Map<number, ProcStat>();
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat !== null) stats.set(pid, stat);
  }
  reads++;
  latest = { at, stats };
  return latest;
}

/** The latest table when it began no earlier than `notBefore` (monoNow() ms), else a fresh one. */
export function procTableSince(notBefore: number): ProcTable {
  return latest !== null && latest.at >= notBefore ? latest : readProcTable();
}

/** How many full reads this process has made: the benchmark prints reads per drill. */
export function procTableReads(): number {
  return reads;
}

type Subscriber = (table: ProcTable) => void;

/** One ticker per sampling interval, alive only while it has subscribers. */
const tickers = new Map<number, { timer: NodeJS.Timeout; subscribers: Set<Subscriber> }>();

/**
 * Call `fn` with a table read at most once per tick, every `intervalMs`, together with every
 * other subscriber of that interval. Returns the unsubscribe function. The timer is unref'd:
 * an observer never keeps the harness alive.
 */
export function onProcTable(intervalMs: number, fn: Subscriber): () => void {
  let ticker = tickers.get(intervalMs);
  if (ticker === undefined) {
    const subscribers = new Set<Subscriber>();
    const timer = setInterval(() => {
      const tick = monoNow();
      // One subscriber's events may lead to a fresh read (a sampleNow()); later ones take that.
      for (const sub of [...subscribers]) if (subscribers.has(sub)) sub(procTableSince(tick));
    }, intervalMs);
    timer.unref();
    ticker = { timer, subscribers };
    tickers.set(intervalMs, ticker);
  }
  const own = ticker;
  own.subscribers.add(fn);
  return () => {
    own.subscribers.delete(fn);
    if (own.subscribers.size === 0 && tickers.get(intervalMs) === own) {
      clearInterval(own.timer);
      tickers.delete(intervalMs);
    }
  };
}
