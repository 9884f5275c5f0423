/**
 * Which MCP SDK a .NET program is built on, and its version: the C# SDK's `ModelContextProtocol*`
 * packages in its deps.json, embedded (dotnet-bundle.ts) or beside the apphost or `<app>.dll`.
 * Null when it is not .NET; else why nothing could be read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { ByteSource } from './byte-source.js';
import { bundleFileBytes, readDotnetBundle } from './dotnet-bundle.js';
import { type DepsJson, parseDepsJson } from './dotnet-deps.js';
import type { ProgramSdk, SdkPackage } from './types.js';

/** The C# SDK's packages (NuGet ids), the one a server references first. */
export const DOTNET_MCP_SDKS = ['ModelContextProtocol', 'ModelContextProtocol.Core', 'ModelContextProtocol.AspNetCore'] as const;

/** From the program's own file: a bundle's embedded deps.json; null when it is not a bundle. */
export function dotnetBundleSdk(file: string, source: ByteSource): ProgramSdk | null {
  const read = readDotnetBundle(source);
  if (read.bundle === null) return null;
  const deps = read.bundle.files.find((f) => f.type === 'deps.json');
  if (!deps)
    return {
      kind: 'dotnet',
      runtimeVersion: null,
      sdks: [],
      reason: `${file} is a .NET single-file bundle with no deps.json among its ${read.bundle.files.length} files`,
    };
  let parsed: DepsJson;
  try {
    parsed = parseDepsJson(bundleFileBytes(source, deps).toString('utf8'));
  } catch (err) {
    return { kind: 'dotnet', runtimeVersion: null, sdks: [], reason: `${file}: its bundled ${deps.path} could not be read: ${(err as Error).message}` };
  }
  return fromDeps(parsed, file, `the bundle's ${deps.path}`, `${file} is a .NET single-file bundle (${read.bundle.files.length} files)`);
}

/** `<app>.deps.json` beside the apphost, or beside the dll `dotnet <app>.dll` runs; null when there is none. */
export function dotnetFolderSdk(exe: string | null, argv: string[], cwd: string): ProgramSdk | null {
  const dll = basename(exe ?? argv[0] ?? '') === 'dotnet' ? argv.slice(1).find((a) => a.endsWith('.dll')) : undefined;
  const app = dll ? (isAbsolute(dll) ? dll : resolve(cwd, dll)).replace(/\.dll$/, '') : exe;
  if (!app) return null;
  const depsFile = `${app}.deps.json`;
  if (!existsSync(depsFile)) return null;
  let parsed: DepsJson;
  try {
    parsed = parseDepsJson(readFileSync(depsFile, 'utf8'));
  } catch (err) {
    return { kind: 'dotnet', runtimeVersion: null, sdks: [], reason: `${depsFile} could not be read: ${(err as Error).message}` };
  }
  const sdk = fromDeps(parsed, depsFile, 'deps.json', `${basename(app)} is a framework-dependent .NET program (${dirname(depsFile)})`);
  // The package is named but its assembly is missing from the folder: said, as the version may not be what runs.
  if (sdk.sdks.length > 0 && !sdk.sdks.some((p) => existsSync(join(dirname(depsFile), `${p.name}.dll`))))
    return { ...sdk, reason: `${depsFile} names ${sdk.sdks.map((p) => p.name).join(', ')}, but no ${sdk.sdks[0].name}.dll is beside it` };
  return sdk;
}

function fromDeps(deps: DepsJson, file: string, from: string, what: string): ProgramSdk {
  const runtimeVersion = deps.runtimeTarget;
  const sdks: SdkPackage[] = deps.libraries
    .filter((l) => (DOTNET_MCP_SDKS as readonly string[]).includes(l.name))
    .map((l) => ({ name: l.name, version: l.version || null, file, from, note: l.type === 'package' ? null : `a ${l.type}, not a NuGet package` }));
  if (sdks.length > 0) return { kind: 'dotnet', runtimeVersion, sdks, reason: null };
  return { kind: 'dotnet', runtimeVersion, sdks: [], reason: `${what} with no ModelContextProtocol package among its ${deps.libraries.length} libraries` };
}
