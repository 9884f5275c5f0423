/**
 * Where the run registry lives: $XDG_RUNTIME_DIR/crash-drill, else /tmp/crash-drill-<euid>, or
 * CRASH_DRILL_REGISTRY. Its records drive sweeps, so tmux's rule for /tmp/tmux-<uid> holds: the
 * user's own 0700 folder, refused (never replaced) when not so, below ancestors no other user can swap.
 */
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../util/errors.js';

export class RegistryError extends UserError {
  readonly code = 'CRASH_DRILL_UNSAFE_REGISTRY';
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export const REGISTRY_ENV = 'CRASH_DRILL_REGISTRY';

export function euid(): number {
  return typeof process.geteuid === 'function' ? process.geteuid() : 0;
}

/** The registry folder this process uses (not checked). */
export function registryPath(env: NodeJS.ProcessEnv = process.env, uid = euid()): string {
  if (env[REGISTRY_ENV]) return resolve(env[REGISTRY_ENV]);
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && xdg.startsWith('/') && privateFolderProblem(xdg, uid) === null) return join(xdg, 'crash-drill');
  return `/tmp/crash-drill-${uid}`;
}

/** The registry folder, checked (made 0700 when missing); RegistryError when it is not the user's own. */
export function registryDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = registryPath(env);
  checkedFolder(dir, env);
  return dir;
}

/** The registry's runs/ folder, checked like the registry itself (made 0700 when missing) at every call: a harness may only sweep its own user's drills (RegistryError). */
export function runsDir(env: NodeJS.ProcessEnv = process.env): string {
  const runs = join(registryDir(env), 'runs');
  checkedFolder(runs, env);
  return runs;
}

/** The user's other registries' runs/ (never made): a cron job with another XDG_RUNTIME_DIR registers there. */
export function siblingRunsDirs(env: NodeJS.ProcessEnv = process.env, uid = euid()): string[] {
  if (env[REGISTRY_ENV]) return [];
  const own = registryPath(env, uid);
  const others = [`/tmp/crash-drill-${uid}`, join(`/run/user/${uid}`, 'crash-drill')];
  if (env.XDG_RUNTIME_DIR?.startsWith('/')) others.push(join(env.XDG_RUNTIME_DIR, 'crash-drill'));
  // The checks of checkedFolder() without making anything, ancestors included.
  return [...new Set(others)]
    .filter((dir) => dir !== own)
    .filter((dir) => ancestorProblem(dirname(dir), uid) === null && privateFolderProblem(dir, uid) === null)
    .map((dir) => join(dir, 'runs'))
    .filter((runs) => privateFolderProblem(runs, uid) === null);
}

/** `dir` checked (made 0700 when missing); `stateVariable` is named in the refusal as the way out. */
export function checkedFolder(dir: string, env: NodeJS.ProcessEnv = process.env, stateVariable?: string): void {
  const uid = euid();
  const named = { env, stateVariable };
  const unsafeAncestor = ancestorProblem(dirname(dir), uid);
  if (unsafeAncestor) throw refusal(dir, { problem: unsafeAncestor, above: true }, named);
  let found = inspectFolder(dir, uid);
  if (found.problem === MISSING) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      // EEXIST: made meanwhile (by another harness of ours, or not: judged below)
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw refusal(dir, { problem: `but it cannot be made: ${(err as NodeJS.ErrnoException).code ?? String(err)}` }, named);
    }
    found = inspectFolder(dir, uid);
  }
  if (found.problem) throw refusal(dir, { problem: found.problem, owner: found.owner }, named);
}

const MISSING = 'but it does not exist';

/** The refusal, with a way out that works for this user ("remove it" only when it is theirs: /tmp is sticky). */
function refusal(
  dir: string,
  found: { problem: string; owner?: number; above?: boolean },
  named: { env: NodeJS.ProcessEnv; stateVariable?: string },
): RegistryError {
  const uid = euid();
  const subject = named.stateVariable ? `the orphans state folder ${dir} (of ${named.stateVariable})` : `the run registry folder ${dir}`;
  /** The way out through a variable: a folder of yours (`another` than this one), below safe parents when `above`. */
  const elsewhere = (another: boolean, above: boolean): string => {
    const folder = `${another ? 'another' : 'a'} folder of yours with mode 0700${above ? ' whose parents only root or you can write (or are sticky, like /tmp)' : ''}`;
    return named.stateVariable
      ? `set ${named.stateVariable} to a file in ${folder}`
      : `set ${REGISTRY_ENV} to ${folder}, the same for every harness of yours on this machine`;
  };
  const byVariable = named.stateVariable !== undefined || Boolean(named.env[REGISTRY_ENV]);
  let fix: string;
  if (found.above) fix = capital(elsewhere(byVariable, true));
  else if (byVariable) fix = `Fix it, or ${elsewhere(true, false)}`;
  else if (found.owner !== undefined && found.owner !== uid)
    fix = `It is uid ${found.owner}'s: only that user or root can remove it (rm -r ${dir}); until then, ${elsewhere(false, false)}`;
  else fix = `Remove it (rm -r ${dir}) if you did not make it, or ${elsewhere(false, false)}`;
  return new RegistryError(
    `${subject} is not private: expected a folder (not a symlink) owned by uid ${uid} with mode 0700 (no group or other permissions), ${found.problem}; refused before anything started. ${fix}.`,
    dir,
  );
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Null when `dir` is a real folder owned by `uid` with no group or other bits; else what it is. */
export function privateFolderProblem(dir: string, uid: number): string | null {
  return inspectFolder(dir, uid).problem;
}

/** privateFolderProblem(), with the owner lstat saw (none when it could not look). */
function inspectFolder(dir: string, uid: number): { problem: string | null; owner?: number } {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? MISSING : `but it cannot be read: ${code ?? String(err)}` };
  }
  const got = `got ${kind(st)} owned by uid ${st.uid} with mode ${octal(st.mode & 0o7777)}`;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) return { problem: got, owner: st.uid };
  return { problem: null, owner: st.uid };
}

/** Null when no folder above `dir` lets another user swap what is below it; symlinks are resolved first. */
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
