/**
 * The machine's process table, read once per tick for every tracker: a tick re-reads only new and
 * named processes, every FULL_READ_EVERY-th all. Verdicts rest on sampleNow(), which reads everything.
 */
import { monoNow } from '../util/clock.js';
import { forgetStatFdsExcept, listPids, readStat, type ProcStat } from './proc.js';

export type ProcTable = {
  at: number;
  stats: Map<number, ProcStat>;
};

let latest: ProcTable | null = null;
let reads = 0;
let updates = 0;

export function readProcTable(): ProcTable {
  const at = monoNow();
  const stats = new Map<number, ProcStat>();
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat !== null) stats.set(pid, stat);
  }
  // A pid no longer listed is gone: its kept descriptor (proc.ts) goes with it.
  forgetStatFdsExcept(stats);
  reads++;
  latest = { at, stats };
  return latest;
}

export const FULL_READ_EVERY = 10;

/** A table now, re-reading only new pids and `refresh`; a pid reused within one tick keeps its old line until the next full read. */
export function updateProcTable(refresh: ReadonlySet<number>): ProcTable {
  if (latest === null) return readProcTable();
  const at = monoNow();
  const previous = latest.stats;
  const stats = new Map<number, ProcStat>();
  for (const pid of listPids()) {
    const known = refresh.has(pid) ? undefined : previous.get(pid);
    const stat = known ?? readStat(pid);
    if (stat !== null) stats.set(pid, stat);
  }
  updates++;
  latest = { at, stats };
  return latest;
}

/** The latest table when it began no earlier than `notBefore` (monoNow() ms), else a fresh one. */
export function procTableSince(notBefore: number): ProcTable {
  return latest !== null && latest.at >= notBefore ? latest : readProcTable();
}

export function procTableUpdates(): number {
  return updates;
}

export function procTableReads(): number {
  return reads;
}

type Subscriber = (table: ProcTable) => void;
/** The pids a subscriber needs fresh at every tick; without one, it gets a full read each tick. */
type Interest = () => Iterable<number>;

/** One ticker per sampling interval, alive only while it has subscribers. */
const tickers = new Map<number, { timer: NodeJS.Timeout; subscribers: Map<Subscriber, Interest | null> }>();

/** The table for a tick: the latest if read since the tick began, else a partial or full read. */
function tableForTick(tick: number, count: number, subscribers: Map<Subscriber, Interest | null>): ProcTable {
  if (latest !== null && latest.at >= tick) return latest;
  const interests = [...subscribers.values()];
  if (count % FULL_READ_EVERY === 0 || interests.some((i) => i === null)) return readProcTable();
  const refresh = new Set<number>();
  for (const interest of interests) for (const pid of interest!()) refresh.add(pid);
  return updateProcTable(refresh);
}

/** Call `fn` with a table read at most once per tick shared by every subscriber of `intervalMs`; `interest`: pids to re-read each tick. Unref'd. */
export function onProcTable(intervalMs: number, fn: Subscriber, interest: Interest | null = null): () => void {
  let ticker = tickers.get(intervalMs);
  if (ticker === undefined) {
    const subscribers = new Map<Subscriber, Interest | null>();
    let count = 0;
    const timer = setInterval(() => {
      const tick = monoNow();
      count++;
      // One subscriber's events may lead to a fresh read (a sampleNow()); later ones take that.
      for (const sub of [...subscribers.keys()]) if (subscribers.has(sub)) sub(tableForTick(tick, count, subscribers));
    }, intervalMs);
    timer.unref();
    ticker = { timer, subscribers };
    tickers.set(intervalMs, ticker);
  }
  const own = ticker;
  own.subscribers.set(fn, interest);
  return () => {
    own.subscribers.delete(fn);
    if (own.subscribers.size === 0 && tickers.get(intervalMs) === own) {
      clearInterval(own.timer);
      tickers.delete(intervalMs);
    }
  };
}
