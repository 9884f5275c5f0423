/**
 * Which runtime and which MCP SDK a server runs on, from what lies on disk near its command,
 * read once the handshake is done (the process is live and has loaded its libraries):
 *
 * - Node: the script's nearest package.json that declares an MCP SDK in `dependencies`, and the
 *   version installed where Node would resolve it from there (node_modules up the folders);
 *   else the first SDK installed up the folders from the script.
 * - Python: the site-packages folders the interpreter has mapped (/proc/PID/maps lists the
 *   extension modules it loaded, pydantic_core among them) or beside a venv's interpreter, and
 *   the `mcp-<version>.dist-info` / `fastmcp-<version>.dist-info` in them.
 *
 * Paths only from the server's own argv, cwd and maps; versions from package metadata.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { ProcIdentity } from './identity.js';
import { readCmdline, readCwd, readExe, readMaps } from './proc.js';

export interface SdkPackage {
  /** The package: @modelcontextprotocol/sdk, @modelcontextprotocol/server, mcp, fastmcp. */
  name: string;
  version: string;
  /** Where it was read (package.json or dist-info folder). */
  file: string;
}

export interface RuntimeFacts {
  runtime: 'node' | 'python' | 'other';
  /** The interpreter's version where it can be read (python3.12 -> 3.12; node: the path's). */
  version: string | null;
  exe: string | null;
  sdks: SdkPackage[];
}

const NODE_SDKS = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'];
const PYTHON_SDKS = ['mcp', 'fastmcp'];

function readJson(file: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function* upFrom(dir: string): Generator<string> {
  let d = dir;
  for (;;) {
    yield d;
    const up = dirname(d);
    if (up === d) return;
    d = up;
  }
}

/** The installed version of a package as Node resolves it from a folder. */
function installed(from: string, name: string): SdkPackage | null {
  for (const d of upFrom(from)) {
    const file = join(d, 'node_modules', name, 'package.json');
    const version = readJson(file)?.version;
    if (typeof version === 'string') return { name, version, file };
  }
  return null;
}

export function nodeSdks(script: string): SdkPackage[] {
  for (const d of upFrom(dirname(script))) {
    const pkg = readJson(join(d, 'package.json'));
    const deps = pkg?.dependencies as Record<string, string> | undefined;
    const declared = NODE_SDKS.filter((name) => deps?.[name] !== undefined);
    if (declared.length > 0) return declared.flatMap((name) => installed(d, name) ?? []);
  }
  const found = NODE_SDKS.flatMap((name) => installed(dirname(script), name) ?? []);
  return found.slice(0, 1);
}

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

/** site-packages folders of a live Python process: from its mapped files, and beside a venv's interpreter. */
function sitePackagesOf(pid: number, argv0: string, cwd: string): string[] {
  const dirs = new Set<string>();
  for (const line of (readMaps(pid) ?? '').split('\n')) {
    const at = line.indexOf('/site-packages/');
    if (at < 0) continue;
    const path = line.slice(line.indexOf('/'), at + '/site-packages'.length);
    dirs.add(path);
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
  const text = readText(script)?.slice(0, 65536);
  if (text === undefined || text === null) return null;
  return new Set([...text.matchAll(/^\s*(?:from|import)\s+([A-Za-z_][\w]*)/gm)].map((m) => m[1].toLowerCase()));
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function runtimeFacts(id: ProcIdentity, secrets: string[] = []): RuntimeFacts | null {
  const facts = readRuntime(id);
  if (!facts) return null;
  const redact = (s: string): string => secrets.filter((x) => x.length > 0).reduce((out, x) => out.split(x).join('[redacted]'), s);
  return { ...facts, exe: facts.exe === null ? null : redact(facts.exe), sdks: facts.sdks.map((p) => ({ ...p, file: redact(p.file) })) };
}

function readRuntime(id: ProcIdentity): RuntimeFacts | null {
  const argv = readCmdline(id.pid);
  if (!argv || argv.length === 0) return null;
  // Gone: what argv says is all there is.
  const exe = readExe(id.pid);
  const cwd = (exe === null ? null : readCwd(id.pid)) ?? '/';
  const name = basename(exe ?? argv[0]);
  if (/^node(\d|$)/.test(name) || /^node$/.test(basename(argv[0]))) {
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    const path = script ? (isAbsolute(script) ? script : resolve(cwd, script)) : null;
    return { runtime: 'node', version: null, exe, sdks: path && existsSync(path) ? nodeSdks(path) : [] };
  }
  const py = /^python(\d+(?:\.\d+)?)?/.exec(name) ?? /^python(\d+(?:\.\d+)?)?/.exec(basename(argv[0]));
  if (py) {
    const sites = sitePackagesOf(id.pid, argv[0], cwd);
    const fromPath = sites.map((s) => /python(\d+\.\d+)\/site-packages$/.exec(s)?.[1]).find(Boolean);
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    const imported = script ? importedPackages(isAbsolute(script) ? script : resolve(cwd, script)) : null;
    const sdks = pythonSdks(sites);
    // Both packages often sit in one environment (FastMCP depends on mcp): the script's imports say which it uses.
    const used = imported === null ? sdks : sdks.filter((p) => imported.has(p.name) || (p.name === 'mcp' && imported.has('fastmcp')));
    return { runtime: 'python', version: py[1]?.includes('.') ? py[1] : (fromPath ?? py[1] ?? null), exe, sdks: used.length > 0 ? used : sdks };
  }
  return { runtime: 'other', version: null, exe, sdks: [] };
}
