import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes a report file whole or not at all: a temp file beside it, then a rename. */
export function writeTextAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * The same, from pieces written as they come: a large run's report is never one string in
 * memory (results.json of 10,000 drills is about 46 MB, twice that while it is written whole).
 */
export function writeChunksAtomic(file: string, chunks: Iterable<string | Uint8Array>): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    for (const chunk of chunks) {
      if (typeof chunk === 'string') writeSync(fd, chunk);
      else for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
    }
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, file);
}
