/**
 * Where the run registry lives, and the checks it passes before every use: the registrations,
 * watchdog records and engine marks of runs.ts, and the orphans command's state. These are
 * records a sweep acts on and a report repeats, so another local user must not be able to
 * write them. The rule is tmux's for /tmp/tmux-<uid> (and OpenSSH's agent's, and systemd's
 * /run/user/<uid>): a folder the user owns, nobody else may enter, made 0700 when missing, and
 * refused, never silently replaced, when it is not so. Every harness of the user must find the
 * same registry: one that fell back elsewhere would take the others' live drills for a dead run's.
 *
 * - $XDG_RUNTIME_DIR/crash-drill when XDG_RUNTIME_DIR is set and is itself such a folder;
 * - else /tmp/crash-drill-<euid>, whatever TMPDIR says;
 * - CRASH_DRILL_REGISTRY names the folder outright (tests), with the same checks.
 * The folder, and runs/ in it, are checked with lstat: a real folder (not a symlink), owned by
 * the effective uid, no group or other permission bits. Its ancestors must be owned by root or
 * the user and writable by nobody else unless sticky (/tmp), so it cannot be swapped after the check.
 */
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';

export class RegistryError extends UserError {
  readonly code = 'CRASH_DRILL_UNSAFE_REGISTRY';
  constructor(
    message: string,
    /** The folder that failed the check. */
    readonly path: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

export const REGISTRY_ENV = 'CRASH_DRILL_REGISTRY';

export function euid(): number {
  return typeof process.geteuid === 'function' ? process.geteuid() : 0;
}

/** The registry folder this process uses (not checked): see the top of this file. */
export function registryPath(env: NodeJS.ProcessEnv = process.env, uid = euid()): string {
  if (env[REGISTRY_ENV]) return resolve(env[REGISTRY_ENV]);
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && xdg.startsWith('/') && privateFolderProblem(xdg, uid) === null) return join(xdg, 'crash-drill');
  return `/tmp/crash-drill-${uid}`;
}

/**
 * The registry folder, checked (made 0700 when missing); throws RegistryError, naming the
 * folder, its owner and mode, and what to do, when it is not the user's own.
 */
export function registryDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = registryPath(env);
  checkedFolder(dir, env);
  return dir;
}

/** The registry's runs/ folder, checked like the registry itself (made 0700 when missing). */
export function checkedRunsDir(env: NodeJS.ProcessEnv = process.env): string {
  const runs = join(registryDir(env), 'runs');
  checkedFolder(runs, env);
  return runs;
}

/**
 * The runs/ folders of the user's other registry locations that exist and pass the checks, never
 * made: a harness whose environment has another XDG_RUNTIME_DIR (a cron job beside a login
 * session) registers there, and its live runs must not look dead from here.
 */
export function siblingRunsDirs(env: NodeJS.ProcessEnv = process.env, uid = euid()): string[] {
  if (env[REGISTRY_ENV]) return [];
  const own = registryPath(env, uid);
  const others = [`/tmp/crash-drill-${uid}`, join(`/run/user/${uid}`, 'crash-drill')];
  if (env.XDG_RUNTIME_DIR?.startsWith('/')) others.push(join(env.XDG_RUNTIME_DIR, 'crash-drill'));
  return [...new Set(others)]
    .filter((dir) => dir !== own)
    .map((dir) => join(dir, 'runs'))
    .filter((runs) => privateFolderProblem(dirname(runs), uid) === null && privateFolderProblem(runs, uid) === null);
}

export function checkedFolder(dir: string, env: NodeJS.ProcessEnv = process.env): void {
  const uid = euid();
  const unsafeAncestor = ancestorProblem(dirname(dir), uid);
  if (unsafeAncestor) throw refusal(dir, unsafeAncestor, env);
  let problem = privateFolderProblem(dir, uid);
  if (problem === MISSING) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      // EEXIST: made meanwhile (by another harness of ours, or not: judged below)
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw refusal(dir, `but it cannot be made: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, env);
    }
    problem = privateFolderProblem(dir, uid);
  }
  if (problem) throw refusal(dir, problem, env);
}

const MISSING = 'but it does not exist';

function refusal(dir: string, problem: string, env: NodeJS.ProcessEnv): RegistryError {
  const fix = env[REGISTRY_ENV]
    ? `Fix it, or set ${REGISTRY_ENV} to another folder of yours with mode 0700`
    : `Remove it (rm -r ${dir}) if you did not make it, or set ${REGISTRY_ENV} to a folder of yours with mode 0700`;
  return new RegistryError(
    `the run registry folder ${dir} is not private: expected a folder (not a symlink) owned by uid ${euid()} with mode 0700 (no group or other permissions), ${problem}; refused before anything started. ${fix}.`,
    dir,
  );
}

/** Null when `dir` is a real folder owned by `uid` with no group or other bits; else what it is. */
export function privateFolderProblem(dir: string, uid: number): string | null {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? MISSING : `but it cannot be read: ${code ?? String(err)}`;
  }
  const got = `got ${kind(st)} owned by uid ${st.uid} with mode ${octal(st.mode & 0o7777)}`;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) return got;
  return null;
}

/**
 * Null when no folder above `dir` lets another user swap what is below it: each is owned by
 * root or `uid`, and writable by group or others only with the sticky bit (/tmp). Symlinks on
 * the way are resolved first, so the folders checked are the ones actually walked.
 */
function ancestorProblem(dir: string, uid: number): string | null {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (err) {
    return `its parent ${dir} cannot be resolved: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  for (let at = real; ; at = dirname(at)) {
    const st = lstatSync(at);
    const shared = (st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0;
    if ((st.uid !== 0 && st.uid !== uid) || shared) {
      return `but the folder above it, ${at}, is owned by uid ${st.uid} with mode ${octal(st.mode & 0o7777)} (expected root or uid ${uid}, not writable by others unless sticky)`;
    }
    if (at === dirname(at)) return null;
  }
}

function kind(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symlink';
  if (st.isDirectory()) return 'a folder';
  if (st.isFile()) return 'a regular file';
  return 'a special file';
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
