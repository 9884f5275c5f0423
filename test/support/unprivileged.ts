/**
 * Running the real CLI as an ordinary user. CI runs as root, most users do not: the tests drop
 * privileges themselves (setpriv to uid/gid 65534, no supplementary groups). When the package
 * folder is not readable by that user (a checkout below a private home), the runtime the CLI
 * needs (what the package ships, as `npm pack` takes it, and the production dependencies) is
 * copied to a world-readable temp folder first. Run as an ordinary user already, the CLI runs as is.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { packageRoot } from '../../harness/util/paths.js';
import { collect, type CliRun } from './cli.js';
import { SHARED_COPY, suiteTmp } from './suite-tmp.js';
import { tempDir } from './temp-dir.js';

export const NOBODY = 65534;

export type Unprivileged =
  | { available: false; reason: string }
  | {
      available: true;
      /** Where the package the CLI runs from lives (packageRoot() or a readable copy). */
      root: string;
      /** A fresh folder the ordinary user owns, for scenarios and reports. */
      workDir(): string;
      /** Starts the CLI as the ordinary user; `env` adds to the environment; `prefix` runs before the drop (as root: unshare). */
      start(args: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv; prefix?: string[] }): ReturnType<typeof spawn>;
      run(args: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<CliRun>;
      cleanup(): void;
    };

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function dropArgs(uid: number): string[] {
  return isRoot() ? ['--reuid', String(uid), '--regid', String(uid), '--clear-groups'] : [];
}

/** Whether `uid` can read `file` (as root, checked as that user; otherwise as oneself). */
export function readableBy(uid: number, file: string): boolean {
  return spawnSync('setpriv', [...dropArgs(uid), 'test', '-r', file], { stdio: 'ignore' }).status === 0;
}

/**
 * The files the package ships, as `npm pack` takes them (package.json's `files`, plus package.json
 * and the README): the runtime of the CLI, perl scripts included, never a list kept by hand here.
 */
export function packedFiles(root: string): string[] {
  // --ignore-scripts: the listing must not run `prepare` (a build) on the way.
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path);
}

/**
 * The readable copy of one suite run, in its temp folder (suiteTmp()), shared by every test file
 * that needs it: a copy is 25 MB of the package and 85 MB of dependencies, 8.5 s and about 9 CPU-s
 * here, which each file of the unprivileged group paid again (in a private checkout, about a tenth
 * of the suite's CPU). Made under another name and renamed into place, so a file finds it whole or
 * not at all; two files that make it at once keep the first and remove the second. The suite's
 * teardown removes it with the folder (test/final/no-files-left.test.ts lets it be).
 */
function sharedReadableCopy(): string {
  const suite = suiteTmp();
  const root = join(suite, SHARED_COPY);
  if (existsSync(root)) return root;
  const partial = mkdtempSync(join(suite, `${SHARED_COPY}.partial-`));
  try {
    readableCopy(partial);
    renameSync(partial, root);
  } catch (error) {
    // A copy that failed, or another file's copy got there first (rename(2) onto a folder that is not empty).
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(root)) throw error;
  }
  return root;
}

/** What the package ships (packedFiles) and node_modules of the production dependencies, copied into `dest`. */
function readableCopy(dest: string): void {
  const src = packageRoot();
  chmodSync(dest, 0o755);
  for (const file of packedFiles(src)) cpSync(join(src, file), join(dest, file));
  // Listed where node_modules really is: through a linked node_modules (the private checkout's),
  // npm ls --omit=dev left out ajv, a dev dependency here that the SDK depends on too.
  const tree = dirname(realpathSync(join(src, 'node_modules')));
  // npm ls exits non-zero on any peer or extraneous complaint; the listing on stdout is still whole.
  const listing = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: tree, encoding: 'utf8' }).stdout ?? '';
  for (const dir of listing.split('\n').slice(1)) {
    if (dir.trim() === '') continue;
    const rel = relative(tree, dir);
    if (!rel.startsWith('node_modules')) continue;
    cpSync(dir, join(dest, rel), { recursive: true, force: false, errorOnExist: false });
  }
  execFileSync('chmod', ['-R', 'a+rX', dest]);
}

/**
 * A Node the user can run: this one, else the first node on PATH that runs for that user (this one
 * may live under a home folder closed to others, as nvm's does); null when there is none.
 */
export function nodeFor(uid: number): string | null {
  if (!isRoot()) return process.execPath;
  const onPath = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir || '.', 'node'));
  // Through sh: setpriv itself may exec a program the user could not (measured here), while what
  // that user's processes start with process.execPath is exec'd by the user.
  const runs = (node: string) => spawnSync('setpriv', [...dropArgs(uid), 'sh', '-c', 'exec "$0" -e 0', node], { stdio: 'ignore' }).status === 0;
  return [process.execPath, ...onPath].find(runs) ?? null;
}

/** The CLI as uid 65534, or as `uid` (a uid of a test's own, which nothing else on the machine runs as). */
export function unprivileged(uid: number = NOBODY): Unprivileged {
  if (process.platform !== 'linux') return { available: false, reason: `dropping privileges is tested on Linux only (this is ${process.platform})` };
  if (isRoot() && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status !== 0) {
    return { available: false, reason: `setpriv (util-linux) is not installed, so the tests cannot drop to uid ${uid}` };
  }
  const node = nodeFor(uid);
  if (node === null)
    return {
      available: false,
      reason: `uid ${uid} cannot run this Node (${process.execPath}: a folder above it is closed to that user, as a home folder of nvm's is) and no node on PATH it can run`,
    };
  const own = packageRoot();
  const mustCopy = process.env.CRASH_DRILL_TEST_COPY_PACKAGE === '1' || !readableBy(uid, join(own, 'dist/bin/crash-drill.js'));
  const copied = isRoot() && mustCopy ? sharedReadableCopy() : null;
  const root = copied ?? own;
  const dirs: string[] = [];
  const cli = join(root, 'dist/bin/crash-drill.js');
  const start = (args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; prefix?: string[] } = {}) => {
    const [command, ...argv] = [...(opts.prefix ?? []), ...(isRoot() ? ['setpriv', ...dropArgs(uid)] : []), node, cli, ...args];
    return spawn(command!, argv, { cwd: opts.cwd ?? root, env: { ...process.env, NO_COLOR: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  return {
    available: true,
    root,
    workDir() {
      const dir = tempDir('crash-drill-nobody-');
      mkdirSync(dir, { recursive: true });
      if (isRoot()) chownSync(dir, uid, uid);
      dirs.push(dir);
      return dir;
    },
    start,
    run(args, opts) {
      return collect(start(args, opts));
    },
    cleanup() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
