/**
 * Installs one catalog entry at its pinned version into the survey cache (cache.ts), once: complete
 * when its `.done` marker is there; a failed install leaves nothing. npm: `npm exec --yes --foreground-scripts
 * --package=<pkg>@<ver> -- true` with npm's cache in ours (integrity-checked; the drills' `npx -y`
 * finds it offline). pypi: a venv and `pip install <pkg>==<ver>` (sha256-checked; dependencies
 * unlocked, as a user's `uvx` would). go: `go install` with GOBIN in the cache. local: nothing.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry } from '../config/index.js';
import { npmCacheDir, surveyCacheRoot } from './cache.js';

export type Installed = { ok: true; dir: string; fromCache: boolean; ms: number; program: string | null } | { ok: false; reason: string; log: string | null };

/** Whether the entry is in the cache already (its `.done` is there): nothing to install. */
export function isInstalled(entry: CatalogEntry, root = surveyCacheRoot()): boolean {
  return entry.registry === 'local' || existsSync(join(entryDir(entry, root), '.done'));
}

function entryDir(entry: CatalogEntry, root: string): string {
  const safe = `${entry.package}@${entry.version}`.replace(/[^A-Za-z0-9@._-]+/g, '+');
  return join(root, entry.registry, safe);
}

/** The program a pypi or go entry runs (its console script or binary), once installed. */
function programOf(entry: CatalogEntry, dir: string): string | null {
  if (entry.registry === 'pypi') return join(dir, 'venv', 'bin', entry.bin!);
  if (entry.registry === 'go' || entry.registry === 'crate') return join(dir, 'bin', entry.bin!);
  return null;
}

export async function install(entry: CatalogEntry, root = surveyCacheRoot()): Promise<Installed> {
  if (entry.registry === 'local') return { ok: true, dir: '', fromCache: true, ms: 0, program: null };
  const dir = entryDir(entry, root);
  if (entry.registry === 'npm') {
    const unwritable = npmCacheUnwritable(root);
    if (unwritable) return { ok: false, reason: unwritable, log: null };
  }
  if (existsSync(join(dir, '.done'))) return { ok: true, dir, fromCache: true, ms: 0, program: programOf(entry, dir) };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const log = join(root, 'logs', `${entry.id}.log`);
  mkdirSync(join(root, 'logs'), { recursive: true });
  const started = Date.now();
  const steps = installSteps(entry, dir, root);
  if (typeof steps === 'string') {
    rmSync(dir, { recursive: true, force: true });
    return { ok: false, reason: steps, log: null };
  }
  for (const step of steps) {
    const code = await runLogged(step.command, step.args, step.env, dir, log);
    if (code !== 0) {
      rmSync(dir, { recursive: true, force: true });
      const script = entry.registry === 'npm' ? failedNpmScript(root) : null;
      const why = script ? `: ${script}` : '';
      return { ok: false, reason: `\`${[step.command, ...step.args].join(' ')}\` exited ${code}${why} (its output: ${log})`, log };
    }
  }
  writeFileSync(join(dir, '.done'), `${entry.registry} ${entry.package} ${entry.version}\n`);
  return { ok: true, dir, fromCache: false, ms: Date.now() - started, program: programOf(entry, dir) };
}

/**
 * npx finds a package in its cache offline only where it may write there: as a user who may not
 * (another user's cache, read in place), `npx -y pkg@ver` fails with ENOTCACHED, having read the
 * package's entry (measured with npm 11.19.1, as uid 65534 on root's survey cache; with a copy of
 * it the user owns, the same npx starts the server). Said before any drill, not as the server's
 * "Connection closed".
 */
function npmCacheUnwritable(root: string): string | null {
  const cache = npmCacheDir(root);
  if (!existsSync(cache)) return null;
  try {
    accessSync(cache, constants.W_OK);
    return null;
  } catch {
    return `npx cannot use the survey cache's npm folder ${cache}: this user may not write there, and npx reads a package from it offline only where it may (ENOTCACHED); survey with a cache of your own (CRASH_DRILL_SURVEY_CACHE, filled once by survey --install-only)`;
  }
}

interface Step {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function installSteps(entry: CatalogEntry, dir: string, root: string): Step[] | string {
  // The entry's own settings that hold no placeholder reach its install scripts too
  // (PUPPETEER_SKIP_DOWNLOAD: puppeteer's postinstall would fetch a browser of its own).
  const own = Object.fromEntries(Object.entries(entry.env).filter(([, v]) => !v.includes('{{')));
  const quiet = { ...own, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  switch (entry.registry) {
    case 'npm':
      return [
        {
          command: 'npm',
          // --foreground-scripts: an install script's output (a native build that fails) lands in the log.
          args: ['exec', '--yes', '--foreground-scripts', `--package=${entry.package}@${entry.version}`, '--', 'true'],
          env: { ...quiet, npm_config_cache: npmCacheDir(root) },
        },
      ];
    case 'pypi':
      return [
        { command: 'python3', args: ['-m', 'venv', join(dir, 'venv')], env: {} },
        {
          command: join(dir, 'venv', 'bin', 'pip'),
          args: ['install', '--no-input', '--disable-pip-version-check', `${entry.package}==${entry.version}`],
          env: { PIP_CACHE_DIR: join(root, 'pip-cache') },
        },
      ];
    case 'go':
      return [{ command: 'go', args: ['install', `${entry.package}@${entry.version}`], env: { GOBIN: join(dir, 'bin'), GOFLAGS: '-mod=mod' } }];
    case 'crate':
      return [{ command: 'cargo', args: ['install', '--locked', '--root', dir, entry.package, '--version', entry.version], env: {} }];
    default:
      return `no installer for the ${entry.registry} registry yet`;
  }
}

/**
 * npm exec prints nothing when a dependency's install script fails; its debug log (the newest in
 * the cache's _logs/) says which: `info run keytar@7.9.0 install { code: 1, signal: null }`.
 */
function failedNpmScript(root: string): string | null {
  const logs = join(npmCacheDir(root), '_logs');
  if (!existsSync(logs)) return null;
  const newest = readdirSync(logs).sort().at(-1);
  if (!newest) return null;
  const found = [...readFileSync(join(logs, newest), 'utf8').matchAll(/info run (\S+) (\w+) \{ code: ([1-9][0-9]*)/g)].at(-1);
  return found ? `the ${found[2]} script of ${found[1]} failed (code ${found[3]})` : null;
}

function runLogged(command: string, args: string[], env: Record<string, string>, cwd: string, log: string): Promise<number> {
  return new Promise((resolve) => {
    const out = createWriteStream(log, { flags: 'a' });
    out.write(`$ ${[command, ...args].join(' ')}\n`);
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', (error) => {
      out.end(`${error.message}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      out.end();
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}
