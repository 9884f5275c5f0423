/**
 * What the ground truth needs beyond the repository, installed once into a cache folder outside
 * it (CLIENT_PROFILES_CACHE, else $XDG_CACHE_HOME or ~/.cache, /crash-drill-bench/client-profiles):
 * - the TypeScript SDK at each version a client pins: Gemini CLI's 1.23.0 (v0.52.0 on) and 1.26.0
 *   (to v0.51.0), Roo Code's 1.12.0, Continue's and OpenCode's 1.29.0, Cline's 1.30.0, each under
 *   an npm alias (sdk123, sdk126, sdk112, sdk129, sdk130) so none can shadow the project's 1.32.2;
 * - a venv with the Python SDK, mcp 2.3.0;
 * - the real published server: @falconer/mcp 0.2.1, whose bin/falconer-mcp launcher runs its
 *   native binary with execFileSync(binary, args, { stdio: 'inherit' }) and forwards no signal.
 * Each is installed with its registry's ordinary client and skipped when already there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SDK_123 = '@modelcontextprotocol/sdk@1.23.0';
export const SDK_126 = '@modelcontextprotocol/sdk@1.26.0';
/** The SDK versions the stand-ins of the clients read since the first eight load. */
export const PINNED_SDKS = ['1.12.0', '1.29.0', '1.30.0'] as const;
export type PinnedSdk = (typeof PINNED_SDKS)[number];
export const PYTHON_SDK = 'mcp==2.3.0';
export const REAL_SERVER = '@falconer/mcp@0.2.1';

export interface Installed {
  /** The 1.23.0 and 1.26.0 SDKs' package folders. */
  sdk123: string;
  sdk126: string;
  /** Each of PINNED_SDKS' package folders. */
  sdks: Record<PinnedSdk, string>;
  /** The venv's python, with mcp 2.3.0. */
  python: string;
  /** The real server's launcher script (node runs it). */
  realLauncher: string;
}

export function cacheDir(): string {
  const base = process.env.CLIENT_PROFILES_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'crash-drill-bench', 'client-profiles');
  mkdirSync(base, { recursive: true });
  return base;
}

function run(command: string, args: string[], cwd: string): void {
  process.stderr.write(`setup: ${command} ${args.join(' ')}\n`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
}

export function ensureInstalled(base = cacheDir()): Installed {
  const sdk = (alias: string, spec: string) => {
    const dir = join(base, alias, 'node_modules', alias);
    if (!existsSync(join(dir, 'package.json'))) {
      mkdirSync(join(base, alias), { recursive: true });
      run('npm', ['install', '--no-audit', '--no-fund', '--prefix', join(base, alias), `${alias}@npm:${spec}`], base);
    }
    return dir;
  };
  const sdk123 = sdk('sdk123', SDK_123);
  const sdk126 = sdk('sdk126', SDK_126);
  const sdks = {} as Record<PinnedSdk, string>;
  for (const version of PINNED_SDKS) sdks[version] = sdk(`sdk${version.replace(/\.0$/, '').replaceAll('.', '')}`, `@modelcontextprotocol/sdk@${version}`);
  const python = join(base, 'venv', 'bin', 'python');
  if (!existsSync(python)) run('python3', ['-m', 'venv', join(base, 'venv')], base);
  try {
    execFileSync(python, ['-c', 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != "2.3.0")'], { stdio: 'ignore' });
  } catch {
    run(python, ['-m', 'pip', 'install', '--quiet', PYTHON_SDK], base);
  }
  const realLauncher = join(base, 'real', 'node_modules', '@falconer', 'mcp', 'bin', 'falconer-mcp');
  if (!existsSync(realLauncher)) {
    mkdirSync(join(base, 'real'), { recursive: true });
    run('npm', ['install', '--no-audit', '--no-fund', '--prefix', join(base, 'real'), REAL_SERVER], base);
  }
  return { sdk123, sdk126, sdks, python, realLauncher };
}
