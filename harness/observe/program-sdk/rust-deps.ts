/**
 * A Rust binary's dependency list, read from the file itself: `cargo auditable`'s `.dep-v0`
 * section where there is one (rust-secure-code/cargo-auditable PARSING.md, output capped at
 * 8 MiB as it advises), else the registry crate paths panic locations keep
 * (`.../registry/src/<index>-<hash>/<name>-<version>/`, which survive stripping). The rustc
 * comes from the ELF `.comment` section.
 */
import { inflateSync } from 'node:zlib';
import { type ByteSource, bufferSource, withFileSource } from './byte-source.js';
import { elfHasSectionTable, elfSection, formatOf, machoSection, type Span } from './executable-sections.js';

export interface RustPackage {
  name: string;
  version: string;
  /** `crates.io`, `local`, `git`, `registry` (cargo auditable's words), or the registry index folder a crate path names. */
  source: string;
  /** cargo auditable's `kind`: `build` for build dependencies (not in the binary's code), else `runtime`. */
  kind: 'runtime' | 'build';
  /** The package the binary was built from (cargo auditable's `root`); never known from crate paths. */
  root: boolean;
}

export interface RustDeps {
  from: 'cargo-auditable' | 'crate-paths';
  packages: RustPackage[];
  /** "rustc version 1.95.0 (59807616e 2026-04-14)" from `.comment`, or null. */
  rustc: string | null;
}

export type RustDepsResult = { deps: RustDeps; reason: null } | { deps: null; reason: string };

const MAX_JSON = 8 * 1024 * 1024;
/** `<name>-<semver>/` after `registry/src/<index folder>/`, either slash (a Windows build's paths). */
const CRATE_PATH = /registry[/\\]src[/\\]([^/\\\0]{1,200})[/\\]([A-Za-z0-9_-]+?)-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)[/\\]/g;
const STD_PATH = /\/rustc\/[0-9a-f]{40}\/library\//;

/** Reads only the headers and the sections it needs (the whole file only when its section table is gone). */
export function readRustDeps(file: string): RustDepsResult {
  try {
    return withFileSource(file, (source) => rustDepsOf(source, file));
  } catch (err) {
    return { deps: null, reason: `${file} could not be read: ${(err as Error).message}` };
  }
}

export function parseRustDeps(bytes: Buffer, file = 'the program'): RustDepsResult {
  return rustDepsOf(bufferSource(bytes), file);
}

export function rustDepsOf(source: ByteSource, file = 'the program'): RustDepsResult {
  const format = formatOf(source);
  const rustc = format === 'elf' ? rustcOf(source) : null;
  const section = format === 'elf' ? elfSection(source, '.dep-v0') : format === 'mach-o' ? machoSection(source, '__DATA', '.dep-v0') : null;
  if (section) {
    const audited = auditable(source, section);
    if (typeof audited === 'string') return { deps: null, reason: `${file}: its cargo auditable section (.dep-v0) ${audited}` };
    return { deps: { from: 'cargo-auditable', packages: audited, rustc }, reason: null };
  }
  const text = readOnlyData(source, format).toString('latin1');
  const packages = cratePaths(text);
  if (packages.length > 0) return { deps: { from: 'crate-paths', packages, rustc }, reason: null };
  if (rustc || STD_PATH.test(text))
    return {
      deps: null,
      reason: `${file} is a Rust program${rustc ? ` (${rustc})` : ''} with no cargo auditable section and no registry crate path in it (built with its paths remapped, or from vendored or git sources): its dependencies cannot be read`,
    };
  return { deps: null, reason: `${file} is not a Rust program (no cargo auditable section, no Rust standard library path)` };
}

/**
 * Where the crate paths lie: the read-only data (ELF `.rodata`; Mach-O `__TEXT,__const` and
 * `__TEXT,__cstring`), a few MB of a large binary; the whole file when there is no section table.
 */
function readOnlyData(source: ByteSource, format: string): Buffer {
  const spans =
    format === 'elf'
      ? [elfSection(source, '.rodata')]
      : format === 'mach-o'
        ? [machoSection(source, '__TEXT', '__const'), machoSection(source, '__TEXT', '__cstring')]
        : [];
  const found = spans.filter((s): s is Span => s !== null);
  if (found.length === 0 || (format === 'elf' && !elfHasSectionTable(source))) return source.read(0, source.size);
  return Buffer.concat(found.map((s) => source.read(s.offset, s.size)));
}

function auditable(source: ByteSource, span: Span): RustPackage[] | string {
  let json: unknown;
  try {
    const raw = inflateSync(source.read(span.offset, span.size), { maxOutputLength: MAX_JSON });
    json = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    return `could not be read: ${(err as Error).message}`;
  }
  const list = (json as { packages?: unknown }).packages;
  if (!Array.isArray(list)) return 'holds no packages list';
  return list
    .filter((p): p is Record<string, unknown> => typeof p?.name === 'string' && typeof p?.version === 'string')
    .map((p) => ({
      name: p.name as string,
      version: p.version as string,
      source: typeof p.source === 'string' ? p.source : 'unknown',
      kind: p.kind === 'build' ? 'build' : 'runtime',
      root: p.root === true,
    }));
}

/** Each registry crate a path names, once, in the order first seen. */
function cratePaths(text: string): RustPackage[] {
  const seen = new Map<string, RustPackage>();
  for (const m of text.matchAll(CRATE_PATH)) {
    const [, index, name, version] = m;
    const key = `${name}@${version}`;
    if (!seen.has(key)) seen.set(key, { name, version, source: index, kind: 'runtime', root: false });
  }
  return [...seen.values()];
}

function rustcOf(source: ByteSource): string | null {
  const comment = elfSection(source, '.comment');
  if (!comment) return null;
  const text = source.read(comment.offset, Math.min(comment.size, 65536)).toString('latin1');
  return /rustc version [^\0]+/.exec(text)?.[0] ?? null;
}
