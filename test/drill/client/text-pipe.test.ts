/**
 * A pipe's text, with its synchronous drain (text-pipe.ts), on a real child's stderr: what the
 * child wrote before it said so on stdout is in the sink once the drain returns, whatever the
 * event loop has read so far; and the drain and the stream's own reads give the child's text
 * once, in order, multi-byte characters whole, however their reads interleave.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { textPipe } from '../../../harness/drill/client/text-pipe.js';

function child(script: string) {
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('textPipe', () => {
  it('hands over at once what waits in the pipe', async () => {
    // Each round: a line on stderr, then a line on stdout saying it is there; the next round when told.
    const c = child(`
      const fs = require('node:fs');
      let i = 0;
      const round = () => { fs.writeSync(2, 'line ' + i + '\\n'); fs.writeSync(1, i + '\\n'); i++; };
      round();
      setInterval(() => { if (i < 20) round(); else process.exit(0); }, 5);
    `);
    let text = '';
    const drain = textPipe(c.stderr, (t) => (text += t));
    const seen: number[] = [];
    let stdout = '';
    c.stdout.setEncoding('utf8');
    c.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const n of lines) {
        drain();
        // Everything the child wrote to stderr before this stdout line is in the sink now.
        if (text.includes(`line ${n}\n`)) seen.push(Number(n));
      }
    });
    await once(c, 'close');
    expect(seen).toEqual([...Array(20).keys()]);
    expect(text).toBe([...Array(20).keys()].map((i) => `line ${i}\n`).join(''));
  });

  it('gives the text once, in order, with multi-byte characters whole, however drain and stream interleave', async () => {
    const c = child(`
      const fs = require('node:fs');
      const bytes = Buffer.from(Array.from({ length: 400 }, (_, i) => 'é' + i + '🙂\\n').join(''));
      let at = 0;
      // Odd-sized writes split characters across writes and reads.
      const step = () => { if (at >= bytes.length) return process.exit(0); fs.writeSync(2, bytes.subarray(at, at + 7)); at += 7; setImmediate(step); };
      step();
    `);
    let text = '';
    const drain = textPipe(c.stderr, (t) => (text += t));
    const timer = setInterval(drain, 1);
    await once(c, 'close');
    clearInterval(timer);
    expect(text).toBe(Array.from({ length: 400 }, (_, i) => `é${i}🙂\n`).join(''));
  });

  it('with a room, stream and drain together stop past it while the writer lives', async () => {
    // 2 KiB, then "x" on stdout; on a line from stdin, 40 KiB more (the pipe holds it), then "y".
    const c = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); fs.writeSync(2, 'a'.repeat(2048)); fs.writeSync(1, 'x');
        process.stdin.once('data', () => { fs.writeSync(2, 'b'.repeat(40 * 1024)); fs.writeSync(1, 'y'); });`,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let text = '';
    const drain = textPipe(c.stderr, (t) => (text += t), undefined, 1000);
    await once(c.stdout, 'data');
    drain();
    // The drain read the room exactly, or the stream's first read took what waited (2 KiB) and paused.
    expect(text.length).toBeGreaterThanOrEqual(1000);
    expect(text).toBe('a'.repeat(text.length));
    const taken = text.length;
    c.stdin.write('go\n');
    await once(c.stdout, 'data');
    // The 40 KiB wait in the pipe; neither the paused stream nor the drain reads them.
    drain();
    expect(text.length).toBe(taken);
    // (Node resumes a child's paused stdio at its exit, lib/internal/child_process.js flushStdio: the rest is read once the writer is gone.)
    c.stdin.end();
    await once(c, 'close');
  });

  it('is a no-op without a stream, and after the stream is gone', async () => {
    expect(() => textPipe(null, () => {})()).not.toThrow();
    const c = child('process.exit(0)');
    const drain = textPipe(c.stderr, () => {});
    await once(c, 'close');
    expect(() => drain()).not.toThrow();
  });
});
