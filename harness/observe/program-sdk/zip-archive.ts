/**
 * The entries of a zip file and the bytes of one, from the central directory as APPNOTE.TXT
 * (PKWARE's .ZIP File Format Specification, 4.3) lays it out, ZIP64 included; stored or deflated.
 * Bytes before the archive (Spring Boot's executable jars) are allowed, as Java's reader allows them.
 */
import { inflateRawSync } from 'node:zlib';
import { UserError } from '../../util/errors.js';
import type { ByteSource } from './byte-source.js';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Where the entry's local header starts, in the source. */
  localOffset: number;
}

/** A jar that cannot be read as a zip: the program's own file, so the user's to fix (the reader turns it into a reason). */
export class ZipError extends UserError {
  readonly code = 'CRASH_DRILL_ZIP';
}

const EOCD = 0x06054b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

/** Every entry of the central directory, in its order. */
export function zipEntries(source: ByteSource): ZipEntry[] {
  const tailLength = Math.min(source.size, EOCD_SIZE + MAX_COMMENT);
  const tail = source.read(source.size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--)
    if (tail.readUInt32LE(i) === EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) {
      at = i;
      break;
    }
  if (at < 0) throw new ZipError('not a zip archive (no end of central directory record)');
  const eocdPos = source.size - tailLength + at;
  let count = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  let cdEnd = eocdPos;
  // A ZIP64 locator before the end record means a ZIP64 record, overflowed or not (as Java's ZipFile reads it).
  const locator = eocdPos >= 20 ? source.read(eocdPos - 20, 20) : Buffer.alloc(0);
  if (locator.length === 20 && locator.readUInt32LE(0) === ZIP64_LOCATOR) {
    // The locator's offset is from the archive's start; with bytes in front, the record is found
    // where it ends, right before the locator (its usual 56 bytes).
    const recordAt = [eocdPos - 20 - 56, Number(locator.readBigUInt64LE(8))].find((at) => at >= 0 && source.read(at, 4).readUInt32LE(0) === ZIP64_EOCD);
    if (recordAt !== undefined) {
      const record = source.read(recordAt, 56);
      count = Number(record.readBigUInt64LE(32));
      cdSize = Number(record.readBigUInt64LE(40));
      cdOffset = Number(record.readBigUInt64LE(48));
      cdEnd = recordAt;
    } else if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      throw new ZipError('a ZIP64 locator that points at no ZIP64 record');
    }
  }
  // Bytes in front of the archive shift every offset by the same amount.
  const shift = cdEnd - cdSize - cdOffset;
  if (shift < 0) throw new ZipError('the central directory does not fit in the file');
  const dir = source.read(cdOffset + shift, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) throw new ZipError(`central directory entry ${i} is cut short or damaged`);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    const entry: ZipEntry = {
      name: dir.toString('utf8', p + 46, p + 46 + nameLength),
      method: dir.readUInt16LE(p + 10),
      compressedSize: dir.readUInt32LE(p + 20),
      size: dir.readUInt32LE(p + 24),
      localOffset: dir.readUInt32LE(p + 42),
    };
    zip64Sizes(entry, dir.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength));
    entry.localOffset += shift;
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The ZIP64 extended information extra field: the 64-bit values of the fields that overflowed, in order. */
function zip64Sizes(entry: ZipEntry, extra: Buffer): void {
  for (let q = 0; q + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(q);
    const length = extra.readUInt16LE(q + 2);
    if (id === 0x0001) {
      let v = q + 4;
      const next = () => {
        const value = Number(extra.readBigUInt64LE(v));
        v += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localOffset === 0xffffffff) entry.localOffset = next();
      return;
    }
    q += 4 + length;
  }
}

/** An entry's uncompressed bytes. */
export function readEntry(source: ByteSource, entry: ZipEntry): Buffer {
  const header = source.read(entry.localOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL) throw new ZipError(`${entry.name}: no local header where the directory says`);
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = source.read(start, entry.compressedSize);
  if (data.length < entry.compressedSize) throw new ZipError(`${entry.name}: cut short`);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new ZipError(`${entry.name}: compression method ${entry.method}, not stored (0) or deflated (8)`);
}
