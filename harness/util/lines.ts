/** Line-at-a-time reading of a stream: a report pipe, a socket of newline-ended messages. */
import type { Readable } from 'node:stream';

/** Calls `onLine` with each complete line of `stream` (the holder's reports, the stand-in's, the survey's CPU pool), without its newline. */
export function pipeLines(stream: Readable, onLine: (line: string) => void): void {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('error', () => {});
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      onLine(line);
    }
  });
}
