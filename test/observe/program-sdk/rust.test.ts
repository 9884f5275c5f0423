/**
 * The Rust reader (rust-deps.ts, rust-mcp-sdk.ts) through the one program reader, both ways, on programs made here: a cargo auditable list (`.dep-v0`, zlib JSON)
 * names rmcp and its version; without one, the crate paths in `.rodata` do
 * (`.../rmcp-<version>/src/...`, as rustc leaves them in panic locations); a Rust program without
 * rmcp, and a program that is not Rust at all, say so. Real rmcp programs: the rmcp fakes
 * (rust-deps.test.ts) and nushell's `nu --mcp` (test/real).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bufferSource } from '../../../harness/observe/program-sdk/byte-source.js';
import { readProgramSdk } from '../../../harness/observe/program-sdk/read-program-sdk.js';
import { rustProgramSdk } from '../../../harness/observe/program-sdk/rust-mcp-sdk.js';
import { tempDir } from '../../support/temp-dir.js';
import { elf64 } from './support/synthetic-programs.js';

const RUSTC = '/rustc/0123456789abcdef0123456789abcdef01234567/library/core/src/panicking.rs\0';
const crate = (c: string) => `/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/${c}/src/lib.rs\0`;
const rodata = (...parts: string[]) => ({ name: '.rodata', bytes: Buffer.from(parts.join(''), 'latin1') });

describe('a Rust program', () => {
  it('names rmcp from the crate paths in its read-only data', () => {
    const { file } = elf64([
      { name: '.text', bytes: Buffer.alloc(64) },
      rodata(RUSTC, crate('tokio-1.50.0'), crate('rmcp-3.1.0'), 'rmcp-3.1.0/src/service.rs\0'),
    ]);
    expect(rustProgramSdk('nu', bufferSource(file))).toEqual({
      kind: 'rust',
      runtimeVersion: null,
      sdks: [{ name: 'rmcp', version: '3.1.0', file: 'nu', from: 'crate path', note: null }],
      reason: null,
    });
  });

  it('names it from a cargo auditable list first, and every version a program holds paths of', () => {
    const list = deflateSync(
      Buffer.from(
        JSON.stringify({
          packages: [
            { name: 'tokio', version: '1.50.0' },
            { name: 'rmcp', version: '0.9.1' },
          ],
        }),
      ),
    );
    const { file } = elf64([{ name: '.dep-v0', bytes: list }, rodata(crate('rmcp-3.1.0'))]);
    expect(rustProgramSdk('x', bufferSource(file))?.sdks).toEqual([{ name: 'rmcp', version: '0.9.1', file: 'x', from: 'cargo auditable', note: null }]);
    // Two semver-incompatible versions linked side by side: both named.
    const two = elf64([rodata(crate('rmcp-0.8.0'), crate('rmcp-1.3.0-beta.1'))]).file;
    expect(rustProgramSdk('y', bufferSource(two))?.sdks.map((s) => s.version)).toEqual(['0.8.0', '1.3.0-beta.1']);
  });

  it('says why not: a Rust program without rmcp; not Rust at all (through the one reader, from a file)', () => {
    const dir = tempDir('crash-drill-rust-');
    const plain = join(dir, 'leanspec-mcp');
    writeFileSync(plain, elf64([rodata(RUSTC, crate('serde_json-1.0.149'), 'xrmcp-1.0.0/src/not-a-path-start\0')]).file);
    expect(readProgramSdk({ argv: [plain], exe: plain, cwd: dir })).toEqual({
      kind: 'rust',
      runtimeVersion: null,
      sdks: [],
      reason: `${plain} is a Rust program with no MCP SDK among the 1 crates of the crate paths it holds`,
    });
    const c = join(dir, 'c-program');
    writeFileSync(c, elf64([rodata('hello from C\0')]).file);
    expect(readProgramSdk({ argv: [c], exe: c, cwd: dir })).toEqual({
      kind: 'other',
      runtimeVersion: null,
      sdks: [],
      reason: `${c} holds no Go build information, no .NET bundle or deps.json, and no Rust crate paths: its SDK could not be told`,
    });
  });
});
