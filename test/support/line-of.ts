/** Waiting on a process's report lines, as they arrive. */
import type { Readable } from 'node:stream';

/** Resolves with the first line of the stream that matches; rejects, with what came, when the stream ends first. */
export function lineOf(stream: Readable, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer): void => {
      text += d.toString();
      for (const line of text.split('\n')) {
        const m = re.exec(line);
        if (m) {
          stream.off('data', onData);
          resolve(m);
          return;
        }
      }
    };
    stream.on('data', onData);
    stream.once('end', () => reject(new Error(`the stream ended without a line like ${re}: ${JSON.stringify(text)}`)));
  });
}
