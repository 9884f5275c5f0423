/**
 * A .NET single-file bundle: the apphost with the application's files and a manifest appended, as
 * dotnet/runtime's bundler writes it (src/installer/managed/Microsoft.NET.HostModel/Bundle/:
 * Bundler.cs `BundleHeaderPlaceholder`, Manifest.cs and FileEntry.cs `Write`, FileType.cs).
 * The placeholder (manifest offset, then the SHA-256 of ".net core bundle") is static data, so
 * only the data section is searched; compressed files are raw deflate. Read piecewise.
 */
import { inflateRawSync } from 'node:zlib';
import { type ByteSource, indexIn } from './byte-source.js';
import { elfHasSectionTable, elfSection, formatOf, machoSection } from './executable-sections.js';

export const BUNDLE_SIGNATURE = Buffer.from('8b1202b96a612038727b930214d7a03213f5b9e6efae3318ee3b2dce24b36aae', 'hex');

export type BundleFileType = 'unknown' | 'assembly' | 'native' | 'deps.json' | 'runtimeconfig.json' | 'symbols';
const FILE_TYPES: BundleFileType[] = ['unknown', 'assembly', 'native', 'deps.json', 'runtimeconfig.json', 'symbols'];

export interface BundleFile {
  path: string;
  type: BundleFileType;
  offset: number;
  size: number;
  /** 0 when stored as is. */
  compressedSize: number;
}

export interface DotnetBundle {
  version: string;
  bundleId: string;
  /** Where the manifest starts (the offset the placeholder holds). */
  manifestOffset: number;
  files: BundleFile[];
}

export type BundleRead = { bundle: DotnetBundle; reason: null } | { bundle: null; reason: string };

/** The bundle's manifest, or why the file is not a bundle. */
export function readDotnetBundle(source: ByteSource): BundleRead {
  const format = formatOf(source);
  const data = format === 'elf' ? elfSection(source, '.data') : format === 'mach-o' ? machoSection(source, '__DATA', '__data') : null;
  if (format === 'other') return { bundle: null, reason: 'not ELF or Mach-O' };
  // Without a section table the whole file is searched, as the host's own reader does; a table with
  // no data section holds no placeholder.
  const stripped = format === 'elf' && !elfHasSectionTable(source);
  const at = data
    ? indexIn(source, BUNDLE_SIGNATURE, data.offset, Math.min(source.size, data.offset + data.size))
    : stripped
      ? indexIn(source, BUNDLE_SIGNATURE)
      : -1;
  if (at < 8) return { bundle: null, reason: 'no .NET bundle signature' };
  const manifestOffset = Number(source.read(at - 8, 8).readBigInt64LE(0));
  if (manifestOffset === 0) return { bundle: null, reason: 'a .NET apphost that is not a single-file bundle (its bundle header offset is 0)' };
  if (manifestOffset < 0 || manifestOffset >= source.size) return { bundle: null, reason: `a .NET bundle header offset (${manifestOffset}) outside the file` };
  try {
    return { bundle: parseManifest(source.read(manifestOffset, Math.min(source.size - manifestOffset, 64 << 20)), manifestOffset), reason: null };
  } catch (err) {
    return { bundle: null, reason: `a .NET bundle whose manifest could not be read: ${(err as Error).message}` };
  }
}

function parseManifest(bytes: Buffer, manifestOffset: number): DotnetBundle {
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.length) throw new Error(`cut short at byte ${manifestOffset + at}`);
  };
  const take = (n: number) => {
    need(n);
    at += n;
    return at - n;
  };
  const u32 = () => bytes.readUInt32LE(take(4));
  const i64 = () => Number(bytes.readBigInt64LE(take(8)));
  const byte = () => bytes[take(1)];
  const str = () => {
    let length = 0;
    for (let shift = 0; ; shift += 7) {
      const b = byte();
      length |= (b & 0x7f) << shift;
      if (b < 0x80) break;
      if (shift > 28) throw new Error('a string length that does not end');
    }
    need(length);
    at += length;
    return bytes.toString('utf8', at - length, at);
  };
  const major = u32();
  const minor = u32();
  const count = u32();
  if (major < 1 || major > 64 || count > 1_000_000) throw new Error(`an unknown bundle version ${major}.${minor} with ${count} files`);
  const bundleId = str();
  if (major >= 2) at += 5 * 8; // deps.json and runtimeconfig.json offset and size, flags: the entries say the same
  const files: BundleFile[] = [];
  for (let i = 0; i < count; i++) {
    const offset = i64();
    const size = i64();
    const compressedSize = major >= 6 ? i64() : 0;
    const type = FILE_TYPES[byte()] ?? 'unknown';
    files.push({ offset, size, compressedSize, type, path: str() });
  }
  return { version: `${major}.${minor}`, bundleId, manifestOffset, files };
}

/** A file's bytes out of the bundle, inflated when it was compressed. */
export function bundleFileBytes(source: ByteSource, file: BundleFile): Buffer {
  if (file.compressedSize > 0) return inflateRawSync(source.read(file.offset, file.compressedSize));
  return source.read(file.offset, file.size);
}
