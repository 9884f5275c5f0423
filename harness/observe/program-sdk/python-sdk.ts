/**
 * A Python program's MCP SDK: the `mcp`/`fastmcp` dist-info in the site-packages its interpreter
 * mapped or beside its venv, narrowed by what the script imports (FastMCP depends on mcp).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SdkPackage } from './types.js';

const PYTHON_SDKS = ['mcp', 'fastmcp'];

export function pythonSdks(sitePackages: string[]): SdkPackage[] {
  const out: SdkPackage[] = [];
  for (const dir of sitePackages) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = /^([A-Za-z0-9_.-]+?)-(\d[^-]*)\.dist-info$/.exec(name);
      if (m && PYTHON_SDKS.includes(m[1].toLowerCase()) && !out.some((p) => p.name === m[1].toLowerCase()))
        out.push({ name: m[1].toLowerCase(), version: m[2], file: join(dir, name) });
    }
  }
  return out;
}

/** site-packages folders of a live Python process: from its mapped files (/proc/PID/maps, read by the caller), and beside a venv's interpreter. */
export function sitePackagesOf(maps: string | null, argv0: string, cwd: string): string[] {
  const dirs = new Set<string>();
  for (const line of (maps ?? '').split('\n')) {
    const at = line.indexOf('/site-packages/');
    if (at < 0) continue;
    dirs.add(line.slice(line.indexOf('/'), at + '/site-packages'.length));
  }
  if (argv0.includes('/')) {
    const lib = join(resolve(cwd, argv0), '../../lib');
    try {
      for (const py of readdirSync(lib)) if (py.startsWith('python')) dirs.add(join(lib, py, 'site-packages'));
    } catch {
      // not a venv layout
    }
  }
  return [...dirs];
}

/** The top-level packages a Python script imports (its first 64 KB), or null when it cannot be read. */
export function importedPackages(script: string): Set<string> | null {
  let text: string;
  try {
    text = readFileSync(script, 'utf8').slice(0, 65536);
  } catch {
    return null;
  }
  return new Set([...text.matchAll(/^\s*(?:from|import)\s+([A-Za-z_][\w]*)/gm)].map((m) => m[1].toLowerCase()));
}
