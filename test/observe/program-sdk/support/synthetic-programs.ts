/**
 * Small programs made for the SDK readers' tests, in the formats the readers parse, written here
 * from the formats' own descriptions (elf(5); the .NET bundle layout in dotnet/runtime's
 * Microsoft.NET.HostModel/Bundle/Manifest.cs): an ELF64 file with the named sections, and a
 * .NET single-file bundle, an apphost-like ELF whose `.data` holds the bundle placeholder, the
 * files appended, and the manifest at the end.
 */
import { deflateRawSync } from 'node:zlib';
import { BUNDLE_SIGNATURE } from '../../../../harness/observe/program-sdk/dotnet-bundle.js';

/** An ELF64 little-endian file: the header, each section's bytes, then the section header table. */
export function elf64(sections: { name: string; bytes: Buffer }[], tail: Buffer = Buffer.alloc(0)): { file: Buffer; offsets: Record<string, number> } {
  const names = Buffer.concat([Buffer.from([0]), ...sections.map((s) => Buffer.from(`${s.name}\0`, 'latin1')), Buffer.from('.shstrtab\0', 'latin1')]);
  const parts: Buffer[] = [Buffer.alloc(64)];
  const offsets: Record<string, number> = {};
  let at = 64;
  const headers: { name: number; offset: number; size: number }[] = [{ name: 0, offset: 0, size: 0 }];
  let nameAt = 1;
  for (const s of sections) {
    offsets[s.name] = at;
    headers.push({ name: nameAt, offset: at, size: s.bytes.length });
    nameAt += s.name.length + 1;
    parts.push(s.bytes);
    at += s.bytes.length;
  }
  headers.push({ name: nameAt, offset: at, size: names.length });
  parts.push(names);
  at += names.length;
  const shoff = at;
  const table = Buffer.alloc(64 * headers.length);
  headers.forEach((h, i) => {
    table.writeUInt32LE(h.name, i * 64);
    table.writeUInt32LE(1, i * 64 + 4); // PROGBITS
    table.writeBigUInt64LE(BigInt(h.offset), i * 64 + 24);
    table.writeBigUInt64LE(BigInt(h.size), i * 64 + 32);
  });
  parts.push(table);
  const header = parts[0];
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2; // 64-bit
  header[5] = 1; // little-endian
  header[6] = 1;
  header.writeUInt16LE(2, 16); // ET_EXEC
  header.writeUInt16LE(62, 18); // x86-64
  header.writeBigUInt64LE(BigInt(shoff), 0x28);
  header.writeUInt16LE(64, 0x3a);
  header.writeUInt16LE(headers.length, 0x3c);
  header.writeUInt16LE(headers.length - 1, 0x3e);
  return { file: Buffer.concat([...parts, tail]), offsets };
}

function str(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  const len: number[] = [];
  let n = bytes.length;
  do {
    len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>= 7;
  } while (n > 0);
  return Buffer.concat([Buffer.from(len), bytes]);
}

export interface BundledFile {
  path: string;
  type: number;
  bytes: Buffer;
  compress?: boolean;
}

/** A single-file bundle of `version` (2 or 6) holding `files`; `offsetZero` leaves the placeholder unset (a plain apphost). */
export function dotnetBundle(files: BundledFile[], opts: { major?: number; offsetZero?: boolean } = {}): Buffer {
  const major = opts.major ?? 6;
  const placeholder = Buffer.concat([Buffer.alloc(8), BUNDLE_SIGNATURE]);
  const data = Buffer.concat([Buffer.alloc(40, 0x11), placeholder, Buffer.alloc(24, 0x22)]);
  const { file: host, offsets } = elf64([
    { name: '.text', bytes: Buffer.alloc(256, 0x90) },
    { name: '.data', bytes: data },
  ]);
  const blobs: Buffer[] = [];
  const entries: Buffer[] = [];
  let at = host.length;
  for (const f of files) {
    const stored = f.compress ? deflateRawSync(f.bytes) : f.bytes;
    const e = Buffer.alloc(major >= 6 ? 24 : 16);
    e.writeBigInt64LE(BigInt(at), 0);
    e.writeBigInt64LE(BigInt(f.bytes.length), 8);
    if (major >= 6) e.writeBigInt64LE(BigInt(f.compress ? stored.length : 0), 16);
    entries.push(e, Buffer.from([f.type]), str(f.path));
    blobs.push(stored);
    at += stored.length;
  }
  const manifestOffset = at;
  const head = Buffer.alloc(12);
  head.writeUInt32LE(major, 0);
  head.writeUInt32LE(0, 4);
  head.writeInt32LE(files.length, 8);
  const v2 = major >= 2 ? Buffer.alloc(40) : Buffer.alloc(0);
  const manifest = Buffer.concat([head, str('TestBundle01'), v2, ...entries]);
  const out = Buffer.concat([host, ...blobs, manifest]);
  if (!opts.offsetZero) out.writeBigInt64LE(BigInt(manifestOffset), offsets['.data'] + 40);
  return out;
}

/** A deps.json naming the application and the given packages. */
export function depsJson(app: string, packages: Record<string, string>): string {
  const libraries: Record<string, { type: string }> = { [`${app}/1.0.0`]: { type: 'project' } };
  for (const [name, version] of Object.entries(packages)) libraries[`${name}/${version}`] = { type: 'package' };
  return JSON.stringify({ runtimeTarget: { name: '.NETCoreApp,Version=v9.0/linux-x64', signature: '' }, targets: {}, libraries }, null, 2);
}
