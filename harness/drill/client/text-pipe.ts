/**
 * A pipe's text as it comes, and on demand what waits in it now, read synchronously: the
 * activity record on stderr (harness/drill/executor/activity-record.ts) must be read before the
 * remote answers, not at the next poll. The drain reads libuv's non-blocking descriptor until
 * EAGAIN, through the same decoder, so stream and drain give one text in order.
 */
import { readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { readWithinRoom } from '../../shared/stderr-room.js';

const CHUNK = 64 * 1024;
/** A drain reads at most this much: a pipe holds 64 KiB by default (pipe(7)). */
const MAX_DRAIN = 4 * 1024 * 1024;

/** Returns the synchronous drain. With `room`, reading stops after that many bytes (harness/shared/stderr-room.ts). */
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
