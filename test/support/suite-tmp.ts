/**
 * The suite's own temp folder. vitest.config.ts makes it before any worker starts and points
 * TMPDIR at it, so every folder a test, a CLI run or a drill makes with mkdtemp lands in it;
 * test/final/no-files-left.test.ts fails when anything is left in it after the whole suite (or
 * when the suite added a drill's folder to /tmp itself), and the global teardown removes it, so
 * a failing suite leaves nothing on the machine either.
 *
 * Sticky and open to every user, like /tmp: the unprivileged tests drop to other uids, which
 * must make their own folders in it. Its name is short (`cds-XXXXXX`): paths under it end up
 * in command lines that reports cut at 80 characters, and in socket paths (108 at most).
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUITE_ENV } from '../../harness/observe/run-ids.js';

export const SUITE_TMP_ENV = 'CRASH_DRILL_SUITE_TMP';
/**
 * Set for a suite that runs inside another one's test (test/unprivileged/private-checkout.e2e.test.ts):
 * the run registries in /tmp are shared with the outer suite, whose tests may be using them
 * right now, so only the outer suite's teardown removes them.
 */
export const NESTED_SUITE_ENV = 'CRASH_DRILL_NESTED_SUITE';
/** The /tmp entries that look like ours, listed when the suite started. */
export const BEFORE_FILE = '.tmp-before.json';
/** The readable copy of the package that uid 65534 runs the CLI from, one per suite (test/support/unprivileged.ts). */
export const SHARED_COPY = '.nobody-package';
const JVM_PERF = /^hsperfdata_/;

/**
 * /tmp entries the suite's code makes there whatever TMPDIR says: a private engine's folder
 * (test/containers/support/private-engine.ts), a user's run registry (/tmp/crash-drill-<uid>),
 * and a JVM's performance data. HotSpot keeps /tmp/hsperfdata_<user>/<pid> while it runs: /tmp
 * whatever TMPDIR says (get_user_tmp_dir, from os::get_temp_directory()); the folder made if
 * missing (create_sharedmem_file), the file removed at the JVM's exit but not the folder
 * (delete_shared_memory), and a killed JVM's file only by a later JVM of that user
 * (cleanup_sharedmem_files). Read in openjdk/jdk17u-dev 192d9c27,
 * src/hotspot/os/posix/perfMemory_posix.cpp; seen here with OpenJDK 17.0.15.
 */
const FIXED = [/^cdk-/, /^crash-drill-\d+$/, JVM_PERF];

/** Listed with the files of dead JVMs inside (`hsperfdata_<user>/<pid>`), so a file left by a killed JVM counts. */
export function fixedEntries(): string[] {
  const names = readdirSync('/tmp').filter((name) => FIXED.some((re) => re.test(name)));
  return names.flatMap((name) => (JVM_PERF.test(name) ? [name, ...jvmFiles(name).map((pid) => `${name}/${pid}`)] : [name]));
}

/** A folder's files whose JVM no longer runs: a running JVM's file is no leftover (another program's, on a machine in use). */
function jvmFiles(folder: string): string[] {
  try {
    return readdirSync(join('/tmp', folder)).filter((pid) => !existsSync(join('/proc', pid)));
  } catch {
    return []; // another user's folder this user may not read: its files are not the suite's
  }
}

/**
 * vitest's own module cache: a folder holding only `ssr/` or `web/` that vitest makes in TMPDIR
 * for each project and removes when it closes, after every test file.
 */
export function isVitestCache(dir: string, name: string): boolean {
  try {
    const inside = readdirSync(join(dir, name));
    return inside.length > 0 && inside.every((entry) => entry === 'ssr' || entry === 'web');
  } catch {
    return false;
  }
}

/**
 * The suite's name, in CRASH_DRILL_SUITE (harness/observe/run-ids.ts), inherited by the workers and
 * everything they start, and given by every harness to its drills' servers: the leftover checks
 * (test/last/no-leftovers.test.ts, .ci/run) count only processes that carry it, so a developer's
 * drill beside the suite is not counted and a leak of the suite's is. .ci/run names the suite
 * itself; a suite inside another's test (NESTED_SUITE_ENV) keeps the outer one's name.
 */
export function suiteName(): string {
  process.env[SUITE_ENV] ??= `suite-${randomUUID()}`;
  return process.env[SUITE_ENV];
}

/** Makes the suite's temp folder once (the config may be loaded more than once) and returns it. */
export function suiteTmp(): string {
  suiteName();
  const existing = process.env[SUITE_TMP_ENV];
  if (existing) return existing;
  const dir = mkdtempSync(join(tmpdir(), 'cds-'));
  chmodSync(dir, 0o1777);
  writeFileSync(join(dir, BEFORE_FILE), JSON.stringify(fixedEntries()));
  process.env[SUITE_TMP_ENV] = dir;
  process.env.TMPDIR = dir;
  return dir;
}

/** The /tmp entries of ours the suite added: names from fixedEntries() not listed when it started. */
export function addedFixedEntries(dir: string): string[] {
  const before = new Set(JSON.parse(readFileSync(join(dir, BEFORE_FILE), 'utf8')) as string[]);
  return fixedEntries().filter((name) => !before.has(name) && join('/tmp', name) !== dir);
}

/** A user's run registry (/tmp/crash-drill-<uid>, harness/registry/registry.ts). */
export function isRegistry(name: string): boolean {
  return /^crash-drill-\d+$/.test(name);
}

/**
 * Removes these run registries of /tmp (names like `crash-drill-0`), but one that holds a run's
 * registration. After test/final/ none is the suite's: it is a harness's beside the suite, which
 * may have made the registry after the suite listed /tmp, and may still be drilling: removing its
 * registration would leave its drills' processes unregistered, stale to every sweep.
 */
export function removeRegistries(names: string[]): void {
  for (const name of names) {
    const registry = join('/tmp', name);
    if (holdsRegistration(registry)) continue;
    rmSync(registry, { recursive: true, force: true });
  }
}

function holdsRegistration(registry: string): boolean {
  try {
    return readdirSync(join(registry, 'runs')).some((file) => file.endsWith('.json'));
  } catch {
    return false; // no runs/ folder
  }
}

/**
 * vitest globalSetup: the teardown removes the suite's temp folder, whatever the suite found, and
 * the run registries it made in /tmp (a user's registry is meant to outlive a run, like
 * /tmp/tmux-<uid>, but the suite makes ones for users that had none: root on a fresh machine,
 * uid 65534), but one holding another harness's run (removeRegistries). test/final/ has checked
 * them first: no run of the suite is left registered in them.
 */
export default function setup(): () => void {
  const dir = suiteTmp();
  return () => {
    if (process.env[NESTED_SUITE_ENV] !== '1') {
      try {
        removeRegistries(addedFixedEntries(dir).filter(isRegistry));
      } catch {
        // the list is gone with an earlier teardown (one a project): nothing more to remove
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
