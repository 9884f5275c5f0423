/**
 * Picks an SDK reader by what the program is and gives the one shape (types.ts). A native file's
 * result is kept per (device, inode, mtime, size): a run drills one binary many times.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { withFileSource } from './byte-source.js';
import { dotnetBundleSdk, dotnetFolderSdk } from './dotnet-mcp-sdk.js';
import { formatOf } from './executable-sections.js';
import { goMcpSdk } from './go-mcp-sdk.js';
import { jvmProgramSdk } from './jvm-mcp-sdk.js';
import { nodeSdks } from './node-sdk.js';
import { importedPackages, pythonSdks, sitePackagesOf } from './python-sdk.js';
import { rustProgramSdk } from './rust-mcp-sdk.js';
import type { ProgramSdk } from './types.js';

/** What is known of the running program: its argv, /proc/PID/exe, its folder, its environment and maps where read. */
export interface ProgramView {
  argv: string[];
  exe: string | null;
  cwd: string;
  env?: Record<string, string | undefined>;
  maps?: string | null;
}

export function readProgramSdk(view: ProgramView): ProgramSdk {
  const { argv, exe, cwd } = view;
  const name = basename(exe ?? argv[0] ?? '');
  const argv0 = basename(argv[0] ?? '');
  const script = argv.slice(1).find((a) => !a.startsWith('-'));
  const scriptPath = script ? (isAbsolute(script) ? script : resolve(cwd, script)) : null;
  if (/^node(\d|$)/.test(name) || argv0 === 'node') {
    const sdks = scriptPath && existsSync(scriptPath) ? nodeSdks(scriptPath) : [];
    return {
      kind: 'node',
      runtimeVersion: null,
      sdks,
      reason: sdks.length > 0 ? null : `no MCP SDK package found near ${scriptPath ?? 'the command (no script)'}`,
    };
  }
  const py = /^python(\d+(?:\.\d+)?)?/.exec(name) ?? /^python(\d+(?:\.\d+)?)?/.exec(argv0);
  if (py) return python(view, py[1], scriptPath);
  if (/^java$/.test(name) || argv0 === 'java') {
    const jvm = jvmProgramSdk(argv, cwd, view.env ?? {});
    if (jvm) return jvm;
  }
  if (name === 'dotnet' || argv0 === 'dotnet')
    return (
      dotnetFolderSdk(exe, argv, cwd) ?? {
        kind: 'dotnet',
        runtimeVersion: null,
        sdks: [],
        reason: `dotnet runs no <app>.dll with a deps.json beside it: ${argv.join(' ').slice(0, 120)}`,
      }
    );
  const file = exe ?? (argv[0] && (isAbsolute(argv[0]) ? argv[0] : null));
  if (!file) return { kind: 'other', runtimeVersion: null, sdks: [], reason: `the program's file is not known (${argv[0] ?? 'no argv'})` };
  return nativeProgram(file, argv, cwd);
}

function python(view: ProgramView, nameVersion: string | undefined, scriptPath: string | null): ProgramSdk {
  const sites = sitePackagesOf(view.maps ?? null, view.argv[0] ?? '', view.cwd);
  const fromPath = sites.map((s) => /python(\d+\.\d+)\/site-packages$/.exec(s)?.[1]).find(Boolean);
  const imported = scriptPath ? importedPackages(scriptPath) : null;
  const sdks = pythonSdks(sites);
  const used = imported === null ? sdks : sdks.filter((p) => imported.has(p.name) || (p.name === 'mcp' && imported.has('fastmcp')));
  const chosen = used.length > 0 ? used : sdks;
  return {
    kind: 'python',
    runtimeVersion: nameVersion?.includes('.') ? nameVersion : (fromPath ?? nameVersion ?? null),
    sdks: chosen,
    reason: chosen.length > 0 ? null : `no mcp or fastmcp dist-info in the interpreter's site-packages (${sites.length} read)`,
  };
}

const cache = new Map<string, { key: string; value: ProgramSdk }>();
const CACHE_MAX = 256;

/** A native program, by its own file, read once per (device, inode, mtime, size). */
export function nativeProgram(file: string, argv: string[], cwd: string): ProgramSdk {
  let key: string;
  try {
    const st = statSync(file);
    key = `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch (err) {
    return { kind: 'other', runtimeVersion: null, sdks: [], reason: `${file} could not be read: ${(err as Error).message}` };
  }
  const kept = cache.get(file);
  if (kept?.key === key) return kept.value;
  const value = readNative(file, argv, cwd);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(file, { key, value });
  return value;
}

/** How many native programs the cache holds (for the tests and the bench). */
export function programSdkCacheSize(): number {
  return cache.size;
}

function readNative(file: string, argv: string[], cwd: string): ProgramSdk {
  let format = 'other';
  try {
    const found = withFileSource(file, (source) => {
      format = formatOf(source);
      if (format === 'other') return null;
      return goMcpSdk(file, source) ?? dotnetBundleSdk(file, source) ?? (dotnetFolderSdk(file, argv, cwd) ? null : rustProgramSdk(file, source));
    });
    if (found) return found;
  } catch (err) {
    return { kind: 'other', runtimeVersion: null, sdks: [], reason: `${file} could not be read: ${(err as Error).message}` };
  }
  const folder = dotnetFolderSdk(file, argv, cwd);
  if (folder) return folder;
  if (format === 'other')
    return { kind: 'other', runtimeVersion: null, sdks: [], reason: `${file} is not an ELF or Mach-O program, nor a node, python, java or dotnet command` };
  return {
    kind: 'other',
    runtimeVersion: null,
    sdks: [],
    reason: `${file} holds no Go build information, no .NET bundle or deps.json, and no Rust crate paths: its SDK could not be told`,
  };
}
