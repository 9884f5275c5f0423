/** Where a drill's record was cut (harness/drill/executor/record-cap.ts), one line a stream: a reader must see that it is not whole. */
import { eventsOf, type DrillEvidence } from '../evidence/types.js';

const STREAM: Record<string, string> = {
  stdout: "the server's stdout noise",
  'retry-stdout': "the retry server's stdout noise",
  stderr: "the server's stderr",
  'client-stderr': "the drill client's stderr",
};

export function describeRecordCuts(evidence: DrillEvidence): string[] {
  const t0 = evidence.events[0]?.t ?? 0;
  const at = (t: number | null) => (t === null ? '?' : `+${Math.round(t - t0)} ms`);
  return eventsOf(evidence, 'record-cut').map((cut) => {
    const name = STREAM[cut.stream] ?? cut.stream;
    const between = cut.firstDroppedAt !== null ? ` between ${at(cut.firstDroppedAt)} and ${at(cut.lastDroppedAt)}` : '';
    if (cut.stream === 'stdout' || cut.stream === 'retry-stdout') {
      const kept = cut.total - cut.droppedLines;
      const parts = [
        `${lines(cut.total)} (${bytes(cut.totalBytes)}), ${count(kept)} kept (the first and the last ${count(Math.ceil(cut.limit / 2))} at most)`,
        ...(cut.droppedLines > 0 ? [`${lines(cut.droppedLines)} (${bytes(cut.droppedBytes)}) left out${between}`] : []),
        ...(cut.shortenedLines > 0 ? [`${lines(cut.shortenedLines)} longer than ${bytes(cut.lineBytes)} kept by their start`] : []),
      ];
      return `${name}: ${parts.join('; ')}`;
    }
    return `${name}: ${bytes(cut.totalBytes)}, the first and the last ${bytes(Math.ceil(cut.limit / 2))} kept; ${bytes(cut.droppedBytes)} left out${between}`;
  });
}

function lines(n: number): string {
  return `${count(n)} ${n === 1 ? 'line' : 'lines'}`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}
