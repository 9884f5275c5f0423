/**
 * A client reading its server's piped stderr: all of it (`pipe-read`: the client logs it), or
 * only as far as a client that never reads it buffers (`pipe-unread`). Gemini CLI runs the
 * TypeScript SDK's transport with `stderr: 'pipe'` and reads the stream only in debug mode: the
 * SDK pipes the child's stderr into a PassThrough (src/client/stdio.ts, 1.23.0), which buffers
 * up to its high-water mark (16 KiB on Node 20: stream.getDefaultHighWaterMark) and then stops
 * the flow, so the kernel's pipe (64 KiB on Linux) fills and the server's next write blocks.
 * The drill reads that much, records it, and then reads no more: a server that logs past it
 * blocks in its write, as under the real client.
 */
import type { Readable } from 'node:stream';
import type { SpawnFacts } from '../client-profiles/profiles.js';

/** What an unread PassThrough takes before it stops the flow (Node 20's default high-water mark for byte streams). */
export const UNREAD_STDERR_ROOM = 16 * 1024;

/** Hands what the client reads of `stream` to `write`; `pipe-unread` stops reading past the room. */
export function readStderr(stream: Readable, mode: SpawnFacts['stderr'], write: { write(chunk: Buffer): unknown }): void {
  let taken = 0;
  stream.on('error', () => {});
  stream.on('data', (chunk: Buffer) => {
    write.write(chunk);
    taken += chunk.length;
    if (mode === 'pipe-unread' && taken >= UNREAD_STDERR_ROOM) stream.pause();
  });
}
