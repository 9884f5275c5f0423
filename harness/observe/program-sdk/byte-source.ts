/** Random access to a program's bytes: a file read piecewise (a large bundle costs only its headers and manifest), or a buffer. */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface ByteSource {
  size: number;
  read(offset: number, length: number): Buffer;
}

export function bufferSource(bytes: Buffer): ByteSource {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

/** A file as a source, open for the callback only. */
export function withFileSource<T>(file: string, use: (source: ByteSource) => T): T {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    return use({
      size,
      read(offset, length) {
        const out = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        let got = 0;
        while (got < out.length) {
          const n = readSync(fd, out, got, out.length - got, offset + got);
          if (n === 0) break;
          got += n;
        }
        return out.subarray(0, got);
      },
    });
  } finally {
    closeSync(fd);
  }
}

/** The first index of `needle` in the source at or after `from`, read in 1 MB windows; -1 when absent. */
export function indexIn(source: ByteSource, needle: Buffer, from = 0, to = source.size, align = 1): number {
  const window = 1 << 20;
  for (let at = from; at < to; at += window) {
    const chunk = source.read(at, Math.min(window + needle.length - 1, to - at));
    for (let i = chunk.indexOf(needle); i >= 0; i = chunk.indexOf(needle, i + 1)) if ((at + i) % align === 0) return at + i;
  }
  return -1;
}
