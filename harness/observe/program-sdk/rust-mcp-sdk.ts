/**
 * Which MCP SDK a Rust program is built on, and at which version:
 *
 * - its embedded dependency list where it has one: `cargo auditable` writes the resolved
 *   packages as zlib-compressed JSON into the section `.dep-v0` (rust-secure-code/cargo-auditable,
 *   PARSING.md: `{"packages": [{"name", "version", "source", ...}]}`);
 * - else the crate paths rustc leaves in the program: every panic location and `file!()` of a
 *   crate from a registry is `<registry>/src/<index>/<crate>-<version>/src/<file>.rs`, so an
 *   rmcp server holds `rmcp-<version>/src/...` in its read-only data (`.rodata`, or Mach-O's
 *   `__TEXT,__const` and `__TEXT,__cstring`).
 *
 * A program is taken for Rust when it holds either, or the standard library's own paths
 * (`/rustc/<commit>/library/`). Null when it is none of these.
 */
import { inflateSync } from 'node:zlib';
import { type ByteSource, withFileSource } from './byte-source.js';
import { elfSection, machoSection, type Span } from './executable-sections.js';
import type { ProgramSdk, SdkPackage } from './types.js';

/** The Rust MCP SDKs by crate name. */
export const RUST_MCP_SDKS = ['rmcp'] as const;

const RUSTC = Buffer.from('/rustc/', 'latin1');
const CRATES_IO = Buffer.from('/index.crates.io-', 'latin1');

export function rustMcpSdk(file: string): ProgramSdk | null {
  try {
    return withFileSource(file, (source) => rustSdkOf(source, file));
  } catch {
    return null;
  }
}

export function rustSdkOf(source: ByteSource, file: string): ProgramSdk | null {
  const audit = elfSection(source, '.dep-v0') ?? machoSection(source, '__DATA', '.dep-v0');
  if (audit) {
    const packages = auditable(source, audit);
    if (packages) {
      const sdks = packages.filter((p) => (RUST_MCP_SDKS as readonly string[]).includes(p.name)).map((p) => pkg(p.name, p.version, file, 'cargo auditable'));
      return sdks.length > 0
        ? { kind: 'rust', runtimeVersion: null, sdks, reason: null }
        : {
            kind: 'rust',
            runtimeVersion: null,
            sdks: [],
            reason: `${file} is a Rust program with no MCP SDK among the ${packages.length} crates of its cargo auditable list`,
          };
    }
  }
  const spans = [elfSection(source, '.rodata'), machoSection(source, '__TEXT', '__const'), machoSection(source, '__TEXT', '__cstring')].filter(
    (s): s is Span => s !== null,
  );
  let rust = false;
  const found = new Map<string, Set<string>>();
  for (const span of spans) {
    const bytes = source.read(span.offset, Math.min(span.size, 256 << 20));
    // Buffer searches first (native); a regex only on the few bytes after each hit.
    rust ||= bytes.indexOf(RUSTC) >= 0 || bytes.indexOf(CRATES_IO) >= 0;
    for (const name of RUST_MCP_SDKS) {
      const needle = Buffer.from(`${name}-`, 'latin1');
      for (let i = bytes.indexOf(needle); i >= 0; i = bytes.indexOf(needle, i + 1)) {
        if (i > 0 && bytes[i - 1] !== 0x2f && bytes[i - 1] !== 0) continue; // a path component starts here
        const m = /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\/src\//.exec(bytes.toString('latin1', i + needle.length, i + needle.length + 48));
        if (!m) continue;
        rust = true;
        if (!found.has(name)) found.set(name, new Set());
        found.get(name)?.add(m[1]);
      }
    }
  }
  if (!rust) return null;
  const sdks = [...found].flatMap(([name, versions]) => [...versions].sort().map((v) => pkg(name, v, file, 'crate path')));
  if (sdks.length === 0)
    return {
      kind: 'rust',
      runtimeVersion: null,
      sdks: [],
      reason: `${file} is a Rust program with no MCP SDK crate among the crate paths it holds (and no cargo auditable list)`,
    };
  const several = sdks.length > 1 ? `${file} holds paths of ${sdks.length} versions of rmcp: each is named` : null;
  return { kind: 'rust', runtimeVersion: null, sdks, reason: several };
}

function pkg(name: string, version: string, file: string, from: string): SdkPackage {
  return { name, version, file, from, note: null };
}

function auditable(source: ByteSource, span: Span): { name: string; version: string }[] | null {
  try {
    const json = JSON.parse(inflateSync(source.read(span.offset, span.size)).toString('utf8')) as { packages?: { name?: unknown; version?: unknown }[] };
    return (json.packages ?? []).flatMap((p) => (typeof p.name === 'string' && typeof p.version === 'string' ? [{ name: p.name, version: p.version }] : []));
  } catch {
    return null;
  }
}
