/**
 * A client reading its server's piped stderr: all of it (`pipe-read`: the client logs it), or
 * only as far as a client that never reads it buffers (`pipe-unread`). Gemini CLI runs the
 * TypeScript SDK's transport with `stderr: 'pipe'` and reads the stream only in debug mode: the
 * SDK pipes the child's stderr into a PassThrough (src/client/stdio.ts, 1.23.0), which buffers
 * up to its high-water mark (16 KiB on Node 20: stream.getDefaultHighWaterMark) and then stops
 * the flow, so the kernel's pipe (64 KiB on Linux) fills and the server's next write blocks.
 * The drill reads that much, records it, and then reads no more: a server that logs past it
 * blocks in its write, as under the real client. (Node resumes a child's paused stdio streams
 * when the child exits, lib/internal/child_process.js flushStdio in Node 20.20.2, so the rest is read once the
 * writer is gone: test/drill/client/text-pipe.test.ts.)
 *
 * The one place that stops reading past the room, for the client process (spawn-subject.ts,
 * bytes to its fd 4) and for the in-process client (harness/drill/client/text-pipe.ts, text,
 * with its synchronous drain counted against the same room).
 */
import type { Readable } from 'node:stream';
import type { SpawnFacts } from '../client-profiles/profiles.js';

/** What an unread PassThrough takes before it stops the flow (Node 20's default high-water mark for byte streams). */
export const UNREAD_STDERR_ROOM = 16 * 1024;

/** The bytes a client of this stderr mode reads before it stops: the room for `pipe-unread`, no limit otherwise. */
export function stderrRoom(mode: SpawnFacts['stderr']): number | undefined {
  return mode === 'pipe-unread' ? UNREAD_STDERR_ROOM : undefined;
}

/** A stream read chunk by chunk until `room` bytes were taken (without a room, to its end). */
export interface RoomReader {
  /** How many more bytes may be taken (Infinity without a room). */
  left(): number;
  /** Takes a chunk read some other way (a synchronous drain), counted against the same room. */
  take(chunk: Buffer): void;
}

/** Hands each chunk of `stream` to `onChunk`, and pauses the stream once `room` bytes were taken. */
export function readWithinRoom(stream: Readable, room: number | undefined, onChunk: (chunk: Buffer) => void): RoomReader {
  let taken = 0;
  const reader: RoomReader = {
    left: () => (room === undefined ? Number.POSITIVE_INFINITY : room - taken),
    take: (chunk) => {
      taken += chunk.length;
      onChunk(chunk);
      if (reader.left() <= 0) stream.pause();
    },
  };
  stream.on('error', () => {});
  stream.on('data', reader.take);
  return reader;
}

/** Hands what the client reads of `stream` to `write`; `pipe-unread` stops reading past the room. */
export function readStderr(stream: Readable, mode: SpawnFacts['stderr'], write: { write(chunk: Buffer): unknown }): void {
  readWithinRoom(stream, stderrRoom(mode), (chunk) => write.write(chunk));
}
