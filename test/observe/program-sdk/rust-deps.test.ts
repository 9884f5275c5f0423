/**
 * The Rust dependency reader on real binaries: the rmcp fake built with `cargo auditable` (its
 * .dep-v0 section), the same fakes built without it (the crate paths of their panic locations),
 * a stripped copy, a copy whose section table is gone, and programs that are not Rust (node, the
 * go tool, a text file). Every version it reads must be the one Cargo.lock pinned.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elfSection } from '../../../harness/observe/program-sdk/executable-sections.js';
import { bufferSource, withFileSource } from '../../../harness/observe/program-sdk/byte-source.js';
import { parseRustDeps, readRustDeps } from '../../../harness/observe/program-sdk/rust-deps.js';
import { rustProgramSdk } from '../../../harness/observe/program-sdk/rust-mcp-sdk.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { AUDITABLE_FAKE, RMCP_VERSION, rustFake, rustFakesSuite } from '../../rust-sdk/support/rust-fakes.js';
import { tempDir } from '../../support/temp-dir.js';

const built = rustFakesSuite('test/observe/program-sdk/rust-deps.test.ts');
const RUSTC = /^rustc version \d+\.\d+\.\d+ \(/;

/** What the program-SDK reader says of a Rust program (null: not one). */
const sdkOf = (file: string) => withFileSource(file, (source) => rustProgramSdk(file, source));
const rmcp = (file: string, from: string) => ({
  kind: 'rust',
  runtimeVersion: expect.stringMatching(RUSTC),
  sdks: [{ name: 'rmcp', version: RMCP_VERSION, file, from, note: null }],
  reason: null,
});

/** name@version of every package Cargo.lock pins. */
function locked(): Set<string> {
  const lock = readFileSync(join(packageRoot(), 'fake-servers/rust/Cargo.lock'), 'utf8');
  return new Set([...lock.matchAll(/^name = "([^"]+)"\nversion = "([^"]+)"/gm)].map(([, n, v]) => `${n}@${v}`));
}

describe.skipIf(!built)('the Rust dependency reader', () => {
  it('names rmcp and its version from the cargo auditable section', () => {
    expect(sdkOf(AUDITABLE_FAKE)).toEqual(rmcp(AUDITABLE_FAKE, 'cargo auditable'));
  });

  it('reads the whole cargo auditable list: the root package, build dependencies, every version as Cargo.lock pins it', () => {
    const { deps } = readRustDeps(AUDITABLE_FAKE);
    expect(deps?.from).toBe('cargo-auditable');
    expect(deps?.packages.filter((p) => p.root)).toEqual([{ name: 'rmcp-fakes', version: '0.1.0', source: 'local', kind: 'runtime', root: true }]);
    expect(deps?.packages.find((p) => p.name === 'tokio')).toMatchObject({ source: 'crates.io', kind: 'runtime' });
    expect(deps?.packages.some((p) => p.kind === 'build')).toBe(true);
    const pinned = locked();
    expect(deps?.packages.filter((p) => !pinned.has(`${p.name}@${p.version}`))).toEqual([]);
    expect(deps?.packages.length).toBeGreaterThan(40);
  });

  it('names rmcp from the crate paths of a binary built without cargo auditable', () => {
    for (const behaviour of ['well-behaved', 'slow-tool', 'writes-after-eof'] as const) {
      expect(sdkOf(rustFake(behaviour))).toEqual(rmcp(rustFake(behaviour), 'crate path'));
    }
    const { deps } = readRustDeps(rustFake('well-behaved'));
    const pinned = locked();
    expect(deps?.packages.filter((p) => !pinned.has(`${p.name}@${p.version}`))).toEqual([]);
    expect(deps?.packages.find((p) => p.name === 'tokio')?.source).toMatch(/^index\.crates\.io-[0-9a-f]+$/);
  });

  it.skipIf(spawnSync('strip', ['--version']).status !== 0)('still reads a stripped binary: the paths are data, not symbols', () => {
    const copy = join(tempDir('crash-drill-rust-deps-'), 'stripped');
    copyFileSync(rustFake('leaks-child'), copy);
    expect(spawnSync('strip', [copy]).status).toBe(0);
    expect(sdkOf(copy)).toEqual(rmcp(copy, 'crate path'));
  });

  it('falls back to the crate paths when the section table is gone (the auditable build, e_shoff zeroed)', () => {
    const bytes = readFileSync(AUDITABLE_FAKE);
    bytes.writeBigUInt64LE(0n, 0x28);
    const read = parseRustDeps(bytes);
    expect(read.deps?.from).toBe('crate-paths');
    expect(read.deps?.packages.find((p) => p.name === 'rmcp')?.version).toBe(RMCP_VERSION);
    expect(read.deps?.rustc).toBeNull();
  });

  it('says why when the auditable section is damaged', () => {
    const bytes = readFileSync(AUDITABLE_FAKE);
    const good = parseRustDeps(bytes);
    expect(good.deps?.from).toBe('cargo-auditable');
    // The section is the zlib stream; a wrong header byte makes it unreadable.
    const section = elfSection(bufferSource(bytes), '.dep-v0');
    expect(bytes[section?.offset ?? 0]).toBe(0x78);
    bytes[section?.offset ?? 0] = 0x00;
    expect(parseRustDeps(bytes, 'f').reason).toMatch(/^f: its cargo auditable section \(\.dep-v0\) could not be read: /);
  });
});

describe('a program that is not Rust, or no program', () => {
  it('says why: an ELF program with neither (node itself)', () => {
    expect(sdkOf(process.execPath)).toBeNull();
    expect(readRustDeps(process.execPath)).toEqual({
      deps: null,
      reason: `${process.execPath} is not a Rust program (no cargo auditable section, no Rust standard library path)`,
    });
  });

  const goTool = spawnSync('go', ['env', 'GOROOT'], { encoding: 'utf8' });
  it.skipIf(goTool.status !== 0)('says why: a Go program (the go tool)', () => {
    const go = join(goTool.stdout.trim(), 'bin/go');
    expect(sdkOf(go)).toBeNull();
    expect(readRustDeps(go).reason).toBe(`${go} is not a Rust program (no cargo auditable section, no Rust standard library path)`);
  });

  it('says why: a text file, and a file that is not there', () => {
    const dir = tempDir('crash-drill-rust-deps-');
    const text = join(dir, 'server.py');
    writeFileSync(text, 'print("hi")\n');
    expect(sdkOf(text)).toBeNull();
    expect(readRustDeps(text).reason).toBe(`${text} is not a Rust program (no cargo auditable section, no Rust standard library path)`);
    expect(readRustDeps(join(dir, 'gone')).reason).toMatch(new RegExp(`^${join(dir, 'gone')} could not be read: ENOENT`));
  });
});
