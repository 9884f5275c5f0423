/**
 * Where the run registry lives and the checks it passes (harness/registry/registry.ts), on real
 * folders: each rule once with a folder that passes and once with one that fails, and the
 * refusal's whole message. The folders of another user are made by root (skipped otherwise);
 * the two-user runs of the real CLI are in registry-users.e2e.test.ts.
 */
import { chmodSync, chownSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsDir, RegistryError, registryDir, registryPath } from '../../harness/registry/registry.js';
import { runDrills } from '../../harness/index.js';
import { scenarioFrom } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const uid = process.geteuid?.() ?? 0;
const isRoot = uid === 0;
if (!isRoot) console.log("[registry] the case of another user's folder skipped: only root can make a folder of another user");
function base(): string {
  return tempDir('registry-'); // removed after the file (test/support/remove-temp-dirs.ts)
}
const env = (registry: string): NodeJS.ProcessEnv => ({ CRASH_DRILL_REGISTRY: registry });
const refusal = (
  dir: string,
  got: string,
  fix = 'Fix it, or set CRASH_DRILL_REGISTRY to another folder of yours with mode 0700, the same for every harness of yours on this machine',
) =>
  `the run registry folder ${dir} is not private: expected a folder (not a symlink) owned by uid ${uid} with mode 0700 (no group or other permissions), ${got}; refused before anything started. ${fix}.`;
/** The whole message, nothing before or after it. */
const exactly = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const modeOf = (dir: string) => {
  const st = lstatSync(dir);
  return [st.isDirectory(), st.uid, st.mode & 0o7777];
};

describe('where the registry is', () => {
  it('$XDG_RUNTIME_DIR/crash-drill when XDG_RUNTIME_DIR is a private folder of ours; /tmp/crash-drill-<euid> when it is not, or unset', () => {
    const xdg = base(); // mkdtemp: 0700, ours
    expect(registryPath({ XDG_RUNTIME_DIR: xdg }, uid)).toBe(join(xdg, 'crash-drill'));
    chmodSync(xdg, 0o755);
    expect(registryPath({ XDG_RUNTIME_DIR: xdg }, uid)).toBe(`/tmp/crash-drill-${uid}`);
    expect(registryPath({ XDG_RUNTIME_DIR: 'relative/run' }, uid)).toBe(`/tmp/crash-drill-${uid}`);
    expect(registryPath({ TMPDIR: xdg }, uid)).toBe(`/tmp/crash-drill-${uid}`);
    expect(registryPath({ CRASH_DRILL_REGISTRY: join(xdg, 'r'), XDG_RUNTIME_DIR: xdg }, uid)).toBe(join(xdg, 'r'));
  });

  it('made 0700 when missing, runs/ too, and used as it is when it is already private', () => {
    const dir = join(base(), 'registry');
    expect(runsDir(env(dir))).toBe(join(dir, 'runs'));
    expect(modeOf(dir)).toEqual([true, uid, 0o700]);
    expect(modeOf(join(dir, 'runs'))).toEqual([true, uid, 0o700]);
    expect(runsDir(env(dir))).toBe(join(dir, 'runs'));
  });
});

describe('a registry that is not private is refused, naming the folder, its owner and mode', () => {
  it('open to others: the folder, or runs/ in it', () => {
    const dir = join(base(), 'registry');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o777);
    expect(() => registryDir(env(dir))).toThrow(new RegistryError(refusal(dir, `got a folder owned by uid ${uid} with mode 0777`), dir));
    expect(() => registryDir(env(dir))).toThrow(expect.objectContaining({ code: 'CRASH_DRILL_UNSAFE_REGISTRY', path: dir }));
    chmodSync(dir, 0o700);
    expect(registryDir(env(dir))).toBe(dir);
    mkdirSync(join(dir, 'runs'), { mode: 0o750 });
    expect(() => runsDir(env(dir))).toThrow(exactly(refusal(join(dir, 'runs'), `got a folder owned by uid ${uid} with mode 0750`)));
  });

  it('a symlink in its place, even to a private folder of ours; a file in its place', () => {
    const root = base();
    const real = join(root, 'real');
    mkdirSync(real, { mode: 0o700 });
    expect(registryDir(env(real))).toBe(real);
    const link = join(root, 'link');
    symlinkSync(real, link);
    expect(() => registryDir(env(link))).toThrow(exactly(refusal(link, `got a symlink owned by uid ${uid} with mode 0777`)));
    const file = join(root, 'file');
    writeFileSync(file, '');
    chmodSync(file, 0o600);
    expect(() => registryDir(env(file))).toThrow(exactly(refusal(file, `got a regular file owned by uid ${uid} with mode 0600`)));
  });

  it('below a folder others may write without the sticky bit (they could swap it after the check); /tmp-like sticky is fine', () => {
    const shared = join(base(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    expect(registryDir(env(join(shared, 'registry')))).toBe(join(shared, 'registry'));
    chmodSync(shared, 0o777);
    const dir = join(shared, 'registry');
    const above = `but the folder above it, ${shared}, is owned by uid ${uid} with mode 0777 (expected root or uid ${uid}, not writable by others unless sticky)`;
    const fix =
      'Set CRASH_DRILL_REGISTRY to another folder of yours with mode 0700 whose parents only root or you can write (or are sticky, like /tmp), the same for every harness of yours on this machine';
    expect(() => registryDir(env(dir))).toThrow(exactly(refusal(dir, above, fix)));
  });

  it.skipIf(!isRoot)("another user's folder, private to them (root only: it makes the other user's folder)", () => {
    const dir = join(base(), 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    expect(() => registryDir(env(dir))).toThrow(exactly(refusal(dir, 'got a folder owned by uid 65534 with mode 0700')));
    chownSync(dir, uid, uid);
    expect(registryDir(env(dir))).toBe(dir);
  });

  it('runDrills() refuses before anything starts or is written: no report folder, no runs/', async () => {
    const root = base();
    const dir = join(root, 'registry');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o707);
    const saved = process.env.CRASH_DRILL_REGISTRY;
    process.env.CRASH_DRILL_REGISTRY = dir;
    try {
      const scenario = scenarioFrom('id: refused\nsubject: { command: node, args: ["-e", "0"] }\ntarget: { call: echo }\n', root);
      await expect(runDrills({ scenarios: [scenario], out: join(root, 'out'), reporters: ['json'] })).rejects.toThrow(
        exactly(refusal(dir, `got a folder owned by uid ${uid} with mode 0707`)),
      );
      expect(() => lstatSync(join(root, 'out'))).toThrow(/ENOENT/);
      expect(() => lstatSync(join(dir, 'runs'))).toThrow(/ENOENT/);
    } finally {
      if (saved === undefined) delete process.env.CRASH_DRILL_REGISTRY;
      else process.env.CRASH_DRILL_REGISTRY = saved;
    }
  });
});
