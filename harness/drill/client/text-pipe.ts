/**
 * A pipe's text as it comes, and, when asked, what waits in the pipe now, read synchronously.
 *
 * Node reads a pipe when its event loop polls it; a reader that must know what a process wrote
 * before some moment (the server's activity record on stderr, read when its request arrives at
 * the remote: harness/drill/executor/activity-record.ts) cannot wait for that poll, as the remote
 * may answer first. `drainNow` reads the pipe's descriptor itself until it would block, and hands
 * what it read to the same sink through the same decoder, so the stream and the drain give one
 * text in order. The descriptor is libuv's (non-blocking: a read with nothing waiting fails with
 * EAGAIN at once); a read of 0 is end of file, which libuv's next read sees too.
 */
import { readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { readWithinRoom } from '../../shared/stderr-room.js';

const CHUNK = 64 * 1024;
/** A drain reads at most this much: a pipe holds 64 KiB by default (pipe(7)). */
const MAX_DRAIN = 4 * 1024 * 1024;

/**
 * Hands the stream's text to `sink`; returns the synchronous drain (a no-op without a stream).
 * With `room`, reading stops once that many bytes were taken, stream and drain alike: a client
 * that never reads its server's stderr (harness/shared/stderr-room.ts) leaves the rest in the pipe.
 */
export function textPipe(stream: Readable | null | undefined, sink: (text: string) => void, onEnd?: () => void, room?: number): () => void {
  if (!stream) return () => {};
  const decoder = new StringDecoder('utf8');
  const reader = readWithinRoom(stream, room, (chunk) => {
    const text = decoder.write(chunk);
    if (text) sink(text);
  });
  stream.once('end', () => {
    const rest = decoder.end();
    if (rest) sink(rest);
    onEnd?.();
  });
  return () => {
    const left = reader.left();
    if (left > 0) drainNow(stream, reader.take, Math.min(MAX_DRAIN, left));
  };
}

function drainNow(stream: Readable, take: (chunk: Buffer) => void, most: number): void {
  // The descriptor of a pipe or socket stream's libuv handle (net.Socket's `_handle.fd`, -1 once closed).
  const fd = (stream as unknown as { _handle?: { fd?: number } | null })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0 || stream.destroyed) return;
  const buf = Buffer.allocUnsafe(CHUNK);
  for (let read = 0; read < most; ) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, Math.min(CHUNK, most - read), null);
    } catch {
      return; // EAGAIN: nothing more waits
    }
    if (n === 0) return;
    read += n;
    take(Buffer.from(buf.subarray(0, n)));
  }
}
