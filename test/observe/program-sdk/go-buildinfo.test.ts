/**
 * The Go build info reader on real binaries: the fakes built on go-sdk v1.8.0 and v1.6.1 and on
 * mcp-go v1.2.1 (ELF), the same server cross-built for macOS (Mach-O), the ground-truth client
 * that holds both SDKs, a copy whose section table is gone (found by the magic, as Go's reader
 * does), and programs that are not Go. Where the `go` tool is on PATH, every module list must
 * equal what `go version -m` prints for the same file.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGoBuildInfo, readGoBuildInfo } from '../../../harness/observe/program-sdk/go-buildinfo.js';
import { withFileSource } from '../../../harness/observe/program-sdk/byte-source.js';
import { goMcpSdk as goMcpSdkOf } from '../../../harness/observe/program-sdk/go-mcp-sdk.js';
import { readProgramSdk } from '../../../harness/observe/program-sdk/read-program-sdk.js';
import { GO_BIN, goFakesBinary, goFakesSuite } from '../../go-sdk/support/go-fakes.js';
import { tempDir } from '../../support/temp-dir.js';

const built = goFakesSuite('test/observe/program-sdk/go-buildinfo.test.ts');
const GO_SDK = 'github.com/modelcontextprotocol/go-sdk';
const MCP_GO = 'github.com/mark3labs/mcp-go';
const goMcpSdk = (file: string) => withFileSource(file, (source) => goMcpSdkOf(file, source));
const sdkOf = (name: string, version: string) => ({ name, version, file: expect.any(String), from: 'Go build info', note: null });
const goTool = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;

/**
 * What `go version -m` lists: path, mod, dep, => and build lines, tab-separated after the file's
 * line. A replaced module is followed by an empty line (runtime/debug/mod.go BuildInfo.String,
 * formatMod: a newline before the `=>` line and another after the module), left out here: the
 * fakes' builds replace fake-servers/go/fakekit with ../fakekit.
 */
function goVersionM(file: string): string[] {
  const out = spawnSync('go', ['version', '-m', file], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } });
  return out.stdout
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The same lines from our reader. */
function ourLines(file: string): string[] {
  const { info } = readGoBuildInfo(file);
  if (!info) return [];
  const mod = (kind: string, m: { path: string; version: string; sum: string | null }) => [kind, m.path, m.version, ...(m.sum ? [m.sum] : [])].join('\t');
  return [
    `path\t${info.path}`,
    ...(info.main ? [mod('mod', info.main)] : []),
    ...info.deps.flatMap((d) => [mod('dep', d), ...(d.replacedBy ? [mod('=>', d.replacedBy)] : [])]),
    ...Object.entries(info.settings).map(([k, v]) => `build\t${k}=${v}`),
  ].map((l) => l.trim());
}

describe.skipIf(!built)('the Go build info reader', () => {
  it('names go-sdk and its version in both go-sdk builds, and mcp-go in the mcp-go build', () => {
    const file = goFakesBinary('go-sdk-v1.8.0');
    expect(goMcpSdk(file)).toEqual({
      kind: 'go',
      runtimeVersion: expect.stringMatching(/^go1\.\d+/),
      sdks: [{ name: GO_SDK, version: 'v1.8.0', file, from: 'Go build info', note: null }],
      reason: null,
    });
    expect(goMcpSdk(goFakesBinary('go-sdk-v1.6.1'))?.sdks).toEqual([sdkOf(GO_SDK, 'v1.6.1')]);
    expect(goMcpSdk(goFakesBinary('mcp-go-v1.2.1'))?.sdks).toEqual([sdkOf(MCP_GO, 'v1.2.1')]);
    // The one reader that picks by what the program is gives the same.
    expect(readProgramSdk({ argv: [file], exe: file, cwd: '/' })).toEqual(goMcpSdk(file));
  });

  it('reads the main module, the dependencies with their sums, and the build settings', () => {
    const { info } = readGoBuildInfo(goFakesBinary('go-sdk-v1.8.0'));
    expect(info?.main).toEqual({ path: 'mcp-crash-drill/fake-servers/go/go-sdk', version: '(devel)', sum: null, replacedBy: null });
    expect(info?.deps.find((d) => d.path === GO_SDK)).toEqual({ path: GO_SDK, version: 'v1.8.0', sum: expect.stringMatching(/^h1:.+=$/), replacedBy: null });
    expect(info?.settings).toMatchObject({ '-trimpath': 'true', GOOS: 'linux' });
  });

  it('reads a Mach-O binary (the same server built for macOS on arm64)', () => {
    const file = join(GO_BIN, 'darwin-arm64/fakes');
    expect(readFileSync(file).readUInt32LE(0)).toBe(0xfeedfacf);
    expect(goMcpSdk(file)?.sdks).toEqual([sdkOf(GO_SDK, 'v1.8.0')]);
    expect(readGoBuildInfo(file).info?.settings).toMatchObject({ GOOS: 'darwin', GOARCH: 'arm64' });
  });

  it('lists both SDKs of a program that holds both (the ground-truth client)', () => {
    expect(goMcpSdk(join(GO_BIN, 'groundtruth/groundtruth'))?.sdks.map((s) => `${s.name}@${s.version}`)).toEqual([`${MCP_GO}@v1.2.1`, `${GO_SDK}@v1.8.0`]);
  });

  it('finds the build info by its magic when the ELF section table is gone', () => {
    const bytes = readFileSync(goFakesBinary('mcp-go-v1.2.1'));
    bytes.writeBigUInt64LE(0n, 0x28); // e_shoff: no section headers
    expect(parseGoBuildInfo(bytes).info?.deps.find((d) => d.path === MCP_GO)?.version).toBe('v1.2.1');
  });

  it.skipIf(!goTool)('gives exactly the module list `go version -m` prints', () => {
    for (const file of [goFakesBinary('go-sdk-v1.8.0'), goFakesBinary('go-sdk-v1.6.1'), goFakesBinary('mcp-go-v1.2.1'), join(GO_BIN, 'darwin-arm64/fakes')])
      expect(ourLines(file)).toEqual(goVersionM(file));
  });
});

describe('a program that is not Go, or no program', () => {
  it('is not taken for Go: an ELF program with no Go build information (node itself)', () => {
    expect(goMcpSdk(process.execPath)).toBeNull();
    expect(readGoBuildInfo(process.execPath)).toEqual({ info: null, reason: `${process.execPath} is not a Go program (no Go build information found)` });
  });

  it('says why: a text file, and a file that is not there', () => {
    const dir = tempDir('crash-drill-buildinfo-');
    const text = join(dir, 'server.py');
    writeFileSync(text, 'print("hi")\n');
    expect(readGoBuildInfo(text).reason).toBe(`${text} is not a Go program (not ELF or Mach-O, and no Go build information found)`);
    expect(readGoBuildInfo(join(dir, 'gone')).reason).toMatch(new RegExp(`^${join(dir, 'gone')} could not be read: ENOENT`));
  });
});
