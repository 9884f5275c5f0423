/**
 * The .NET readers both ways, on programs made here in the formats the host reads: a
 * single-file bundle (manifest versions 6 and 2, its deps.json stored and compressed) names the
 * C# SDK's packages and their versions; a plain apphost, a bundle without the SDK, a bundle with
 * no deps.json and a cut-off manifest say why not; a framework-dependent folder (`<app>` and
 * `<app>.deps.json`, or `dotnet <app>.dll`) names it from the deps.json beside it. The published
 * .NET servers (Azure MCP Server, a bundle of 141 MB) are read in test/real.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferSource } from '../../../harness/observe/program-sdk/byte-source.js';
import { readDotnetBundle } from '../../../harness/observe/program-sdk/dotnet-bundle.js';
import { dotnetBundleSdk, dotnetFolderSdk } from '../../../harness/observe/program-sdk/dotnet-mcp-sdk.js';
import { readProgramSdk } from '../../../harness/observe/program-sdk/read-program-sdk.js';
import { tempDir } from '../../support/temp-dir.js';
import { depsJson, dotnetBundle } from './support/synthetic-programs.js';

const SDK = { ModelContextProtocol: '1.2.0', 'ModelContextProtocol.Core': '1.2.0', 'Microsoft.Extensions.Hosting': '9.0.0' };
const named = (file: string, from: string) =>
  ['ModelContextProtocol', 'ModelContextProtocol.Core'].map((name) => ({ name, version: '1.2.0', file, from, note: null }));

function write(dir: string, name: string, bytes: Buffer | string): string {
  const file = join(dir, name);
  writeFileSync(file, bytes, { mode: 0o755 });
  return file;
}

describe('a .NET single-file bundle', () => {
  it('names the C# SDK packages from the embedded deps.json (manifest 6, stored and compressed; manifest 2)', () => {
    const dir = tempDir('crash-drill-dotnet-');
    for (const [label, opts, compress] of [
      ['v6', { major: 6 }, false],
      ['v6z', { major: 6 }, true],
      ['v2', { major: 2 }, false],
    ] as const) {
      const file = write(
        dir,
        `server-${label}`,
        dotnetBundle(
          [
            { path: 'server.dll', type: 1, bytes: Buffer.from('MZ not really') },
            { path: 'ModelContextProtocol.Core.dll', type: 1, bytes: Buffer.alloc(64, 1) },
            { path: 'server.deps.json', type: 3, bytes: Buffer.from(depsJson('server', SDK)), compress },
            { path: 'server.runtimeconfig.json', type: 4, bytes: Buffer.from('{}') },
          ],
          opts,
        ),
      );
      expect(readProgramSdk({ argv: [file], exe: file, cwd: dir })).toEqual({
        kind: 'dotnet',
        runtimeVersion: '.NETCoreApp,Version=v9.0/linux-x64',
        sdks: named(file, "the bundle's server.deps.json"),
        reason: null,
      });
    }
  });

  it('reads the manifest: version, id and every file with its type', () => {
    const bytes = dotnetBundle([
      { path: 'a.dll', type: 1, bytes: Buffer.alloc(10) },
      { path: 'libx.so', type: 2, bytes: Buffer.alloc(20), compress: true },
      { path: 'a.deps.json', type: 3, bytes: Buffer.from('{"libraries":{}}') },
    ]);
    const read = readDotnetBundle(bufferSource(bytes));
    expect(read.bundle?.version).toBe('6.0');
    expect(read.bundle?.bundleId).toBe('TestBundle01');
    expect(read.bundle?.files.map((f) => [f.path, f.type, f.size])).toEqual([
      ['a.dll', 'assembly', 10],
      ['libx.so', 'native', 20],
      ['a.deps.json', 'deps.json', 16],
    ]);
  });

  it('says why not: a plain apphost, a bundle without the SDK, one without deps.json, a cut-off manifest, not a program', () => {
    const plain = dotnetBundle([{ path: 'a.deps.json', type: 3, bytes: Buffer.from(depsJson('a', SDK)) }], { offsetZero: true });
    expect(readDotnetBundle(bufferSource(plain)).reason).toBe('a .NET apphost that is not a single-file bundle (its bundle header offset is 0)');
    const without = dotnetBundle([{ path: 'a.deps.json', type: 3, bytes: Buffer.from(depsJson('a', { 'Newtonsoft.Json': '13.0.3' })) }]);
    expect(dotnetBundleSdk('a', bufferSource(without))).toEqual({
      kind: 'dotnet',
      runtimeVersion: '.NETCoreApp,Version=v9.0/linux-x64',
      sdks: [],
      reason: 'a is a .NET single-file bundle (1 files) with no ModelContextProtocol package among its 2 libraries',
    });
    const noDeps = dotnetBundle([{ path: 'a.dll', type: 1, bytes: Buffer.alloc(4) }]);
    expect(dotnetBundleSdk('a', bufferSource(noDeps))?.reason).toBe('a is a .NET single-file bundle with no deps.json among its 1 files');
    const cut = dotnetBundle([{ path: 'a.deps.json', type: 3, bytes: Buffer.from(depsJson('a', SDK)) }]);
    expect(readDotnetBundle(bufferSource(cut.subarray(0, cut.length - 5))).reason).toMatch(
      /^a \.NET bundle whose manifest could not be read: cut short at byte \d+$/,
    );
    expect(readDotnetBundle(bufferSource(Buffer.from('#!/bin/sh\n'))).reason).toBe('not ELF or Mach-O');
    expect(dotnetBundleSdk('node', bufferSource(Buffer.from('\x7fELF')))).toBeNull();
  });
});

describe('a framework-dependent .NET folder', () => {
  it('names the SDK from <app>.deps.json beside the apphost, and beside the dll `dotnet <app>.dll` runs', () => {
    const dir = tempDir('crash-drill-dotnet-folder-');
    const app = join(dir, 'server');
    copyFileSync('/bin/true', app);
    const deps = write(dir, 'server.deps.json', depsJson('server', SDK));
    write(dir, 'ModelContextProtocol.dll', Buffer.alloc(4));
    const expected = { kind: 'dotnet', runtimeVersion: '.NETCoreApp,Version=v9.0/linux-x64', sdks: named(deps, 'deps.json'), reason: null };
    expect(readProgramSdk({ argv: [app], exe: app, cwd: '/' })).toEqual(expected);
    expect(readProgramSdk({ argv: ['dotnet', 'server.dll', '--stdio'], exe: '/usr/share/dotnet/dotnet', cwd: dir })).toEqual(expected);
  });

  it('says why not: no SDK in the deps.json, a package named but its dll missing, a deps.json that is not JSON', () => {
    const dir = tempDir('crash-drill-dotnet-folder-');
    mkdirSync(join(dir, 'a'));
    write(join(dir, 'a'), 'app.deps.json', depsJson('app', { 'Newtonsoft.Json': '13.0.3' }));
    expect(dotnetFolderSdk(join(dir, 'a/app'), [join(dir, 'a/app')], '/')?.reason).toBe(
      `app is a framework-dependent .NET program (${join(dir, 'a')}) with no ModelContextProtocol package among its 2 libraries`,
    );
    mkdirSync(join(dir, 'b'));
    const deps = write(join(dir, 'b'), 'app.deps.json', depsJson('app', SDK));
    expect(dotnetFolderSdk(join(dir, 'b/app'), [], '/')?.reason).toBe(
      `${deps} names ModelContextProtocol, ModelContextProtocol.Core, but no ModelContextProtocol.dll is beside it`,
    );
    mkdirSync(join(dir, 'c'));
    const bad = write(join(dir, 'c'), 'app.deps.json', '{ not json');
    expect(dotnetFolderSdk(join(dir, 'c/app'), [], '/')?.reason).toMatch(new RegExp(`^${bad} could not be read: `));
    expect(dotnetFolderSdk(join(dir, 'nothing'), [], '/')).toBeNull();
    expect(readProgramSdk({ argv: ['dotnet', 'gone.dll'], exe: '/usr/bin/dotnet', cwd: dir })).toEqual({
      kind: 'dotnet',
      runtimeVersion: null,
      sdks: [],
      reason: 'dotnet runs no <app>.dll with a deps.json beside it: dotnet gone.dll',
    });
  });
});
