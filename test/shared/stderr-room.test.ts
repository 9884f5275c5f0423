/**
 * The one reader that stops past a client's room (harness/shared/stderr-room.ts), on real Node
 * streams: a `pipe-unread` client takes its 16 KiB and pauses, a `pipe-read` one takes all, and a
 * synchronous take (text-pipe's drain) counts against the same room.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStderr, readWithinRoom, stderrRoom, UNREAD_STDERR_ROOM } from '../../harness/shared/stderr-room.js';

const KIB = 1024;

/** Writes `sizes` one after another, each once the stream has taken the last (setImmediate between). */
async function feed(stream: PassThrough, sizes: number[]): Promise<void> {
  for (const size of sizes) {
    stream.write(Buffer.alloc(size, 0x61));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('stderr room', () => {
  it('gives pipe-unread its 16 KiB and the other modes no limit', () => {
    expect(stderrRoom('pipe-unread')).toBe(UNREAD_STDERR_ROOM);
    expect(UNREAD_STDERR_ROOM).toBe(16 * KIB);
    expect(stderrRoom('pipe-read')).toBeUndefined();
    expect(stderrRoom('inherit')).toBeUndefined();
  });

  it('pipe-unread: takes chunks until the room is full, then pauses the stream', async () => {
    const stream = new PassThrough();
    const taken: number[] = [];
    readStderr(stream, 'pipe-unread', { write: (chunk: Buffer) => taken.push(chunk.length) });
    await feed(stream, [10 * KIB, 10 * KIB, 10 * KIB]);
    expect(taken).toEqual([10 * KIB, 10 * KIB]);
    expect(stream.isPaused()).toBe(true);
    expect(stream.readableLength).toBe(10 * KIB);
  });

  it('pipe-read: takes everything', async () => {
    const stream = new PassThrough();
    const taken: number[] = [];
    readStderr(stream, 'pipe-read', { write: (chunk: Buffer) => taken.push(chunk.length) });
    await feed(stream, [10 * KIB, 10 * KIB, 10 * KIB]);
    expect(taken).toEqual([10 * KIB, 10 * KIB, 10 * KIB]);
    expect(stream.isPaused()).toBe(false);
  });

  it('a synchronous take counts against the same room', async () => {
    const stream = new PassThrough();
    let total = 0;
    const reader = readWithinRoom(stream, 4 * KIB, (chunk) => (total += chunk.length));
    reader.take(Buffer.alloc(3 * KIB));
    expect(reader.left()).toBe(KIB);
    await feed(stream, [2 * KIB, 2 * KIB]);
    expect(total).toBe(5 * KIB);
    expect(reader.left()).toBe(-KIB);
    expect(stream.isPaused()).toBe(true);
    expect(readWithinRoom(new PassThrough(), undefined, () => {}).left()).toBe(Number.POSITIVE_INFINITY);
  });
});
