/** Where a named section lies in an ELF or Mach-O file, from its headers only (elf(5); Apple's <mach-o/loader.h>, <mach-o/fat.h>). */
import type { ByteSource } from './byte-source.js';

export interface Span {
  offset: number;
  size: number;
}

export type ExecutableFormat = 'elf' | 'mach-o' | 'other';

export function formatOf(source: ByteSource): ExecutableFormat {
  const head = source.read(0, 4);
  if (head.length < 4) return 'other';
  if (head.readUInt32BE(0) === 0x7f454c46) return 'elf';
  if ([0xfeedfacf, 0xcafebabe].includes(head.readUInt32BE(0)) || head.readUInt32LE(0) === 0xfeedfacf) return 'mach-o';
  return 'other';
}

/** Whether an ELF file has a section header table at all (a stripped one has none, and then only a search can find a section's bytes). */
export function elfHasSectionTable(source: ByteSource): boolean {
  const h = source.read(0, 64);
  if (h.length < 52 || h.readUInt32BE(0) !== 0x7f454c46) return false;
  const is64 = h[4] === 2;
  const le = h[5] === 1;
  const shoff = is64 ? Number(le ? h.readBigUInt64LE(0x28) : h.readBigUInt64BE(0x28)) : le ? h.readUInt32LE(0x20) : h.readUInt32BE(0x20);
  const shnum = le ? h.readUInt16LE(is64 ? 0x3c : 0x30) : h.readUInt16BE(is64 ? 0x3c : 0x30);
  return shoff !== 0 && shnum !== 0 && shoff < source.size;
}

/** An ELF section by name, through the section header table and its string table. */
export function elfSection(source: ByteSource, name: string): Span | null {
  const h = source.read(0, 64);
  if (h.length < 52) return null;
  const is64 = h[4] === 2;
  const le = h[5] === 1;
  const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const word = (b: Buffer, o: number) => (is64 ? Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o)) : u32(b, o));
  const shoff = word(h, is64 ? 0x28 : 0x20);
  const shentsize = u16(h, is64 ? 0x3a : 0x2e);
  const shnum = u16(h, is64 ? 0x3c : 0x30);
  const shstrndx = u16(h, is64 ? 0x3e : 0x32);
  if (shoff === 0 || shnum === 0 || shstrndx >= shnum || shoff + shnum * shentsize > source.size) return null;
  const table = source.read(shoff, shnum * shentsize);
  // Each header: name (u32), type (u32), flags (word), addr (word), offset (word), size (word).
  const header = (i: number) => {
    const at = i * shentsize;
    const w = is64 ? 8 : 4;
    return { name: u32(table, at), offset: word(table, at + 8 + 2 * w), size: word(table, at + 8 + 3 * w) };
  };
  const strings = header(shstrndx);
  const names = source.read(strings.offset, Math.min(strings.size, 1 << 20));
  for (let i = 0; i < shnum; i++) {
    const s = header(i);
    const end = names.indexOf(0, s.name);
    if (end > s.name && names.toString('latin1', s.name, end) === name) return { offset: s.offset, size: s.size };
  }
  return null;
}

/** A Mach-O section by segment and name, through the LC_SEGMENT_64 load commands. */
export function machoSection(source: ByteSource, segment: string, name: string): Span | null {
  let base = 0;
  // A universal ("fat") file: big-endian header, then one fat_arch (20 bytes) per slice; take the first.
  const first = source.read(0, 32);
  if (first.length < 32) return null;
  if (first.readUInt32BE(0) === 0xcafebabe) base = first.readUInt32BE(8 + 8);
  const header = source.read(base, 32);
  if (header.length < 32 || header.readUInt32LE(0) !== 0xfeedfacf) return null;
  const ncmds = header.readUInt32LE(16);
  const sizeofcmds = header.readUInt32LE(20);
  const cmds = source.read(base + 32, sizeofcmds); // mach_header_64 is 32 bytes
  let at = 0;
  for (let i = 0; i < ncmds && at + 8 <= cmds.length; i++) {
    const cmd = cmds.readUInt32LE(at);
    const cmdsize = cmds.readUInt32LE(at + 4);
    if (cmd === 0x19) {
      // segment_command_64: 72 bytes, nsects at 64; then section_64 entries of 80 bytes each.
      const nsects = cmds.readUInt32LE(at + 64);
      for (let s = 0; s < nsects; s++) {
        const sec = at + 72 + s * 80;
        if (sec + 80 > cmds.length) return null;
        const sectname = cmds.toString('latin1', sec, sec + 16).replace(/\0.*$/s, '');
        const segname = cmds.toString('latin1', sec + 16, sec + 32).replace(/\0.*$/s, '');
        if (sectname === name && segname === segment) return { offset: base + cmds.readUInt32LE(sec + 48), size: Number(cmds.readBigUInt64LE(sec + 40)) };
      }
    }
    if (cmdsize === 0) return null;
    at += cmdsize;
  }
  return null;
}
