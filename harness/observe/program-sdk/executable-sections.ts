/**
 * Where a named section's bytes lie in an executable file: ELF (32 or 64 bit, either byte order)
 * and Mach-O (64 bit, thin or the first slice of a universal file), read from the file's own
 * headers (elf(5); Apple's <mach-o/loader.h>, <mach-o/fat.h>). Only what the Go build info reader
 * needs: a file offset and a size, or null when the format or the section is not there.
 */

export interface Span {
  offset: number;
  size: number;
}

export type ExecutableFormat = 'elf' | 'mach-o' | 'other';

export function formatOf(bytes: Buffer): ExecutableFormat {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x7f454c46) return 'elf';
  if (bytes.length >= 4 && [0xfeedfacf, 0xcafebabe].includes(bytes.readUInt32BE(0))) return 'mach-o';
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0xfeedfacf) return 'mach-o';
  return 'other';
}

/** An ELF section by name, through the section header table and its string table. */
export function elfSection(bytes: Buffer, name: string): Span | null {
  const is64 = bytes[4] === 2;
  const le = bytes[5] === 1;
  const u16 = (o: number) => (le ? bytes.readUInt16LE(o) : bytes.readUInt16BE(o));
  const u32 = (o: number) => (le ? bytes.readUInt32LE(o) : bytes.readUInt32BE(o));
  const word = (o: number) => (is64 ? Number(le ? bytes.readBigUInt64LE(o) : bytes.readBigUInt64BE(o)) : u32(o));
  const shoff = word(is64 ? 0x28 : 0x20);
  const shentsize = u16(is64 ? 0x3a : 0x2e);
  const shnum = u16(is64 ? 0x3c : 0x30);
  const shstrndx = u16(is64 ? 0x3e : 0x32);
  if (shoff === 0 || shnum === 0 || shoff + shnum * shentsize > bytes.length) return null;
  // Each header: name (u32), type (u32), flags (word), addr (word), offset (word), size (word).
  const header = (i: number) => {
    const at = shoff + i * shentsize;
    const w = is64 ? 8 : 4;
    return { name: u32(at), offset: word(at + 8 + 2 * w), size: word(at + 8 + 3 * w) };
  };
  const strings = header(shstrndx);
  for (let i = 0; i < shnum; i++) {
    const h = header(i);
    const start = strings.offset + h.name;
    const end = bytes.indexOf(0, start);
    if (end > start && bytes.toString('latin1', start, end) === name) return { offset: h.offset, size: h.size };
  }
  return null;
}

/** A Mach-O section by segment and name, through the LC_SEGMENT_64 load commands. */
export function machoSection(bytes: Buffer, segment: string, name: string): Span | null {
  let base = 0;
  // A universal ("fat") file: big-endian header, then one fat_arch (20 bytes) per slice; take the first.
  if (bytes.readUInt32BE(0) === 0xcafebabe) base = bytes.readUInt32BE(8 + 8);
  if (base + 32 > bytes.length || bytes.readUInt32LE(base) !== 0xfeedfacf) return null;
  const ncmds = bytes.readUInt32LE(base + 16);
  let at = base + 32; // mach_header_64
  for (let i = 0; i < ncmds && at + 8 <= bytes.length; i++) {
    const cmd = bytes.readUInt32LE(at);
    const cmdsize = bytes.readUInt32LE(at + 4);
    if (cmd === 0x19) {
      // segment_command_64: 72 bytes, nsects at 64; then section_64 entries of 80 bytes each.
      const nsects = bytes.readUInt32LE(at + 64);
      for (let s = 0; s < nsects; s++) {
        const sec = at + 72 + s * 80;
        const sectname = bytes.toString('latin1', sec, sec + 16).replace(/\0.*$/s, '');
        const segname = bytes.toString('latin1', sec + 16, sec + 32).replace(/\0.*$/s, '');
        if (sectname === name && segname === segment) return { offset: base + bytes.readUInt32LE(sec + 48), size: Number(bytes.readBigUInt64LE(sec + 40)) };
      }
    }
    if (cmdsize === 0) return null;
    at += cmdsize;
  }
  return null;
}
