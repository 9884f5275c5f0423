/**
 * A Go binary's embedded build information, as `go version -m` shows it, read from the file as
 * Go's own reader does (debug/buildinfo/buildinfo.go readRawBuildInfo, runtime/debug/mod.go
 * ParseBuildInfo, Go 1.26): the `.go.buildinfo` header with magic "\xff Go buildinf:", then two
 * uvarint-length strings (Go 1.18+). Older binaries keep pointers instead: not read, and said so.
 */
import { type ByteSource, bufferSource, indexIn, withFileSource } from './byte-source.js';
import { elfHasSectionTable, elfSection, formatOf, machoSection, type Span } from './executable-sections.js';

export interface GoModule {
  path: string;
  version: string;
  sum: string | null;
  replacedBy: { path: string; version: string; sum: string | null } | null;
}

export interface GoBuildInfo {
  goVersion: string;
  /** The main package's import path. */
  path: string;
  main: GoModule | null;
  deps: GoModule[];
  settings: Record<string, string>;
}

export type GoBuildInfoResult = { info: GoBuildInfo; reason: null } | { info: null; reason: string };

const MAGIC = Buffer.from('\xff Go buildinf:', 'latin1');
const HEADER = 32;
const ALIGN = 16;

/** Reads only the file's headers and its build info section (the whole file only when its section table is gone). */
export function readGoBuildInfo(file: string): GoBuildInfoResult {
  try {
    return withFileSource(file, (source) => goBuildInfoOf(source, file));
  } catch (err) {
    return { info: null, reason: `${file} could not be read: ${(err as Error).message}` };
  }
}

export function parseGoBuildInfo(bytes: Buffer, file = 'the program'): GoBuildInfoResult {
  return goBuildInfoOf(bufferSource(bytes), file);
}

export function goBuildInfoOf(source: ByteSource, file = 'the program'): GoBuildInfoResult {
  const format = formatOf(source);
  const section = format === 'elf' ? elfSection(source, '.go.buildinfo') : format === 'mach-o' ? machoSection(source, '__DATA', '__go_buildinfo') : null;
  // Stripped: search the whole file for the magic at a 16-byte boundary, as Go's reader does. A
  // section table without the section is not Go (the linker always writes it).
  const searched = format === 'other' || (format === 'elf' && !elfHasSectionTable(source));
  const at = section ? headerIn(source, section) : searched ? indexIn(source, MAGIC, 0, source.size, ALIGN) : -1;
  if (at === null || at < 0 || at + HEADER > source.size)
    return { info: null, reason: `${file} is not a Go program (${format === 'other' ? 'not ELF or Mach-O, and ' : ''}no Go build information found)` };
  const header = source.read(at, HEADER);
  const flags = header[15];
  if ((flags & 2) === 0)
    return { info: null, reason: `${file} was built by Go before 1.18: its build information is held by pointers, which this reader does not follow` };
  const version = uvarintSpan(source, at + HEADER);
  const modinfo = version ? uvarintSpan(source, version.end) : null;
  if (!version || !modinfo) return { info: null, reason: `${file}: its Go build information is cut short` };
  // The sentinels: 16 bytes each side, the last line's newline just before the end one.
  const bytes = source.read(modinfo.start, modinfo.end - modinfo.start);
  const framed = bytes.length >= 33 && bytes[bytes.length - 17] === 0x0a;
  const text = framed ? bytes.toString('utf8', 16, bytes.length - 16) : '';
  return { info: parseModinfo(source.read(version.start, version.end - version.start).toString('utf8'), text), reason: null };
}

function headerIn(source: ByteSource, span: Span): number | null {
  const i = indexIn(source, MAGIC, span.offset, Math.min(source.size, span.offset + span.size));
  return i >= 0 && i + HEADER <= span.offset + span.size ? i : null;
}

/** A uvarint length and that many bytes after it. */
function uvarintSpan(source: ByteSource, at: number): { start: number; end: number } | null {
  const head = source.read(at, 10);
  let length = 0;
  let shift = 0;
  let i = 0;
  for (; i < head.length; i++) {
    length += (head[i] & 0x7f) * 2 ** shift;
    shift += 7;
    if (head[i] < 0x80) break;
  }
  const start = at + i + 1;
  if (i >= head.length || start + length > source.size) return null;
  return { start, end: start + length };
}

function parseModinfo(goVersion: string, text: string): GoBuildInfo {
  const info: GoBuildInfo = { goVersion, path: '', main: null, deps: [], settings: {} };
  let last: GoModule | null = null;
  for (const line of text.split('\n')) {
    const [kind, ...f] = line.split('\t');
    const mod = (): GoModule => ({ path: f[0] ?? '', version: f[1] ?? '', sum: f[2] || null, replacedBy: null });
    if (kind === 'path') info.path = f[0] ?? '';
    else if (kind === 'mod') last = info.main = mod();
    else if (kind === 'dep') info.deps.push((last = mod()));
    else if (kind === '=>' && last) last.replacedBy = { path: f[0] ?? '', version: f[1] ?? '', sum: f[2] || null };
    else if (kind === 'build') {
      const [key, ...value] = (f[0] ?? '').split('=');
      info.settings[key] = value.join('=');
    }
  }
  return info;
}
