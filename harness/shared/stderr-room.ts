/**
 * A client reading its server's piped stderr, all of it (`pipe-read`) or only as far as a client
 * that never reads it buffers (`pipe-unread`): the TypeScript SDK's PassThrough (src/client/stdio.ts,
 * 1.23.0) stops at its high-water mark, and the server's next write blocks once the pipe fills.
 * Node resumes a child's paused stdio at its exit (lib/internal/child_process.js flushStdio).
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
