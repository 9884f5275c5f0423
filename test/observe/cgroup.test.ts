import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupSupport, DrillTracker, findCgroup2Mount, identify, procState, type CgroupSupport, type ProcIdentity } from '../../harness/observe/index.js';
import { NOBODY, nodeFor, unprivileged } from '../support/unprivileged.js';
import { envWith, FIXTURES, start } from './helpers.js';
import { Cleanup, testDrillId } from '../support/cleanup.js';
import { containDrill } from '../../harness/containment/drill.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
const support = cgroupSupport();

describe('cgroup support', () => {
  it('finds the cgroup2 mount on hybrid and pure v2 machines, and none on v1-only', () => {
    const hybrid = 'cgroup /sys/fs/cgroup/cpu cgroup rw 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n';
    const pure = 'cgroup2 /sys/fs/cgroup cgroup2 rw,nsdelegate 0 0\n';
    expect(findCgroup2Mount(hybrid)).toBe('/sys/fs/cgroup/unified');
    expect(findCgroup2Mount(pure)).toBe('/sys/fs/cgroup');
    expect(findCgroup2Mount('cgroup /sys/fs/cgroup/cpu cgroup rw 0 0\n')).toBeNull();
  });

  it('is available to root where the facts of this machine allow it, and says why not where they do not', () => {
    if (!isRoot()) return; // the unprivileged case below runs in this process instead
    const facts = cgroupFacts();
    expect(support).toEqual(expectedSupport(facts, { uid: 0, gids: [0] }));
    // Where cgroup2 is mounted, the kernel puts every process in it: /proc/self/cgroup says so.
    if (facts.mount) expect(facts.inV2).toBe(true);
  });

  it('is not available to an unprivileged user unless the cgroup tree is delegated to it, and says why', () => {
    const facts = cgroupFacts();
    // uid 65534's only group is 65534 (setpriv --clear-groups).
    const user = isRoot() ? { uid: NOBODY, gids: [NOBODY] } : { uid: process.getuid!(), gids: [process.getgid!(), ...process.getgroups!()] };
    expect(isRoot() ? supportAs(NOBODY) : support).toEqual(expectedSupport(facts, user));
  });
});

const isRoot = (): boolean => process.getuid?.() === 0;

/**
 * What decides cgroup support on this machine, read from the kernel rather than from the code
 * under test: whether this process is in a cgroup v2 hierarchy at all (the `0::` line of
 * /proc/self/cgroup), where that hierarchy is mounted and whether read-write (/proc/self/mounts:
 * /sys/fs/cgroup on a pure v2 machine, .../unified on a hybrid one), and who may create a folder
 * where crash-drill makes its drills' cgroups.
 */
interface CgroupFacts {
  inV2: boolean;
  mount: string | null;
  readOnly: boolean;
  /** The folder a drill cgroup is created in, or the mount when that folder does not exist yet. */
  parent: { path: string; uid: number; gid: number; mode: number } | null;
}

function cgroupFacts(): CgroupFacts {
  const inV2 = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .some((line) => line.startsWith('0::'));
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f[2] === 'cgroup2');
  const entry = mounts.find((f) => f[1] === '/sys/fs/cgroup') ?? mounts[0];
  if (!entry) return { inV2, mount: null, readOnly: false, parent: null };
  const mount = entry[1];
  const dir = existsSync(join(mount, 'crash-drill')) ? join(mount, 'crash-drill') : mount;
  const st = statSync(dir);
  return { inV2, mount, readOnly: entry[3].split(',').includes('ro'), parent: { path: dir, uid: st.uid, gid: st.gid, mode: st.mode } };
}

function expectedSupport(facts: CgroupFacts, user: { uid: number; gids: number[] }): CgroupSupport {
  if (facts.mount === null || facts.parent === null) return { available: false, reason: 'no cgroup2 mount in /proc/mounts' };
  const root = join(facts.mount, 'crash-drill');
  const { parent } = facts;
  const { uid, gids } = user;
  const writable =
    uid === 0 || (parent.uid === uid ? (parent.mode & 0o200) !== 0 : gids.includes(parent.gid) ? (parent.mode & 0o020) !== 0 : (parent.mode & 0o002) !== 0);
  const code = facts.readOnly ? 'EROFS' : writable ? null : 'EACCES';
  if (code === null) return { available: true, root };
  return { available: false, root, reason: `cannot create a cgroup under ${root} (${code}); running unprivileged?` };
}

/**
 * cgroupSupport() as seen by another uid: the built module run by node as that user, from the
 * package as that user can read it (a copy when the checkout is private: test/support/unprivileged.ts).
 */
function supportAs(uid: number): CgroupSupport {
  const nobody = unprivileged();
  if (!nobody.available) throw new Error(`cannot run as uid ${uid}: ${nobody.reason}`);
  try {
    const module = pathToFileURL(join(nobody.root, 'dist/harness/observe/index.js')).href;
    const code = `const { cgroupSupport } = await import(${JSON.stringify(module)}); process.stdout.write(JSON.stringify(cgroupSupport()));`;
    const run = spawnSync(
      'setpriv',
      ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', nodeFor(uid) ?? process.execPath, '--input-type=module', '-e', code],
      {
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) throw new Error(`cgroupSupport() as uid ${uid} exited ${run.status}:\n${run.stderr}`);
    return JSON.parse(run.stdout) as CgroupSupport;
  } finally {
    nobody.cleanup();
  }
}

if (!support.available) console.log(`[skip] DrillCgroup: ${support.reason ?? 'no writable cgroup v2'}`);
describe.skipIf(!support.available)('DrillCgroup', () => {
  it('holds added processes and their descendants, reports emptiness by event, and refuses removal while populated', async () => {
    const drillId = testDrillId();
    const cg = cleanup.cgroup(drillId)!;
    expect(existsSync(cg.path)).toBe(true);
    expect(cg.populated()).toBe(false);

    const p = start(cleanup, 'sh', ['-c', 'read go; sleep 300 & echo $!; wait'], { detached: true });
    expect(cg.addPid(p.id)).toBe(true);
    expect(cg.addPid({ pid: p.id.pid, startTime: p.id.startTime + 1 })).toBe(false);
    p.child.stdin!.write('go\n');
    const childId = identify(Number(await p.nextLine()))!;
    cleanup.track(childId);
    expect(cg.pids().sort()).toEqual([p.id.pid, childId.pid].sort());
    expect(cg.populated()).toBe(true);
    expect(cg.remove()).toBe(false);
    expect(existsSync(cg.path)).toBe(true);

    const empty = new Promise<void>((resolve) => cg.onEmpty(resolve));
    expect(cg.kill()).toBe(true);
    await empty;
    expect(cg.populated()).toBe(false);
    expect(procState(childId)).not.toBe('alive');
    expect(cg.remove()).toBe(true);
    expect(existsSync(cg.path)).toBe(false);
  });

  it('whenEmpty: false while a process stays inside past the wait, true as soon as the last one exits, and the cgroup can go then', async () => {
    const cg = cleanup.cgroup(testDrillId())!;
    expect(await cg.whenEmpty(50)).toBe(true);
    // Like a released holder: it exits once told, a moment after the drill's end asked for its cgroup.
    const p = start(cleanup, 'sh', ['-c', 'read go; exit 0'], { detached: true });
    expect(cg.addPid(p.id)).toBe(true);
    expect(await cg.whenEmpty(100)).toBe(false);
    expect(cg.remove()).toBe(false);
    const empty = cg.whenEmpty(30_000);
    p.child.stdin!.write('go\n');
    expect(await empty).toBe(true);
    expect(cg.remove()).toBe(true);
    expect(existsSync(cg.path)).toBe(false);
  });

  it('lets containDrill() end a daemon that only the cgroup sees', async () => {
    const drillId = testDrillId();
    const cg = cleanup.cgroup(drillId)!;
    const root = start(
      cleanup,
      'sh',
      ['-c', 'read go; sh -c "setsid env -i /bin/sh -c \\"echo \\\\\\$\\\\\\$; exec /bin/sleep 300\\" & exit 0"; read forever'],
      {
        detached: true,
        env: envWith({ CRASH_DRILL_RUN: drillId }),
      },
    );
    cg.addPid(root.id);
    root.child.stdin!.write('go\n');
    const daemon = identify(Number(await root.nextLine()))!;
    cleanup.track(daemon);
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: cg });
    expect(tracker.sampleNow().map((p) => p.pid)).toContain(daemon.pid);
    expect(tracker.close()).toBe(false); // populated: the kernel keeps it, and so do we
    const records = await containDrill(tracker, { termWaitMs: 2000 });
    expect(records.find((r) => r.pid === daemon.pid)).toMatchObject({ endedBy: 'SIGTERM' });
    expect(await tracker.waitForQuiet({ timeoutMs: 10_000 })).toBe(true);
    expect(cg.populated()).toBe(false);
    expect(tracker.close()).toBe(true);
    expect(cg.exists()).toBe(false);
  });

  /** Start fixtures/escape.sh as a drill root; returns once the daemon exists and its middle parent is gone. */
  async function escapeTree(drillId: string, adopt: boolean) {
    const cg = cleanup.cgroup(drillId)!;
    const root = start(cleanup, 'sh', [`${FIXTURES}escape.sh`], { detached: true, env: envWith({ CRASH_DRILL_RUN: drillId }) });
    expect(cg.pids()).toEqual([]);
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: cg, adopt });
    root.child.stdin!.write('go\n');
    let daemon: ProcIdentity | null = null;
    let done = false;
    while (!daemon || !done) {
      const [word, pid] = (await root.nextLine()).split(' ');
      if (word === 'done') done = true;
      else cleanup.track((daemon = identify(Number(pid))));
    }
    return { cg, root, tracker, daemon };
  }

  it('adopts the root into the cgroup when the harness did not, so a later escape is still caught', async () => {
    const { cg, root, tracker, daemon } = await escapeTree(testDrillId(), true);
    expect(cg.pids()).toContain(root.id.pid);
    const found = tracker.sampleNow().find((p) => p.pid === daemon.pid);
    expect(found?.foundBy).toEqual(['cgroup']);
    expect(found?.sid).toBe(daemon.pid);
  });

  it('without adoption the same escape stays invisible', async () => {
    const { cg, root, tracker, daemon } = await escapeTree(testDrillId(), false);
    expect(cg.pids()).toEqual([]);
    expect(tracker.sampleNow().map((p) => p.pid)).toEqual([root.id.pid]);
    expect(procState(daemon)).toBe('alive');
  });
});
