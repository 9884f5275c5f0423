/**
 * The state of the --stuck-after rule (harness/live-machine/pending.ts) on real files: a look keeps
 * the first-seen time of a key still pending and forgets a key no longer pending; a folder
 * another user owns, or a symlink to one, or one open to others refuses (RegistryError: `orphans` exits 3); a state
 * file that is a symlink, another user's, or garbled is a first look. The default folder is the run registry.
 * The io looks of the superseded rule keep their first time only while every look finds the
 * counters quiet since the last (the same, unless the caller's rule says more), in the same file,
 * each kind kept when a look records only the other.
 */
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RegistryError, registryPath } from '../../harness/registry/registry.js';
import { pendingFile, recordLooks, recordPending } from '../../harness/live-machine/pending.js';
import { tempDir } from '../support/temp-dir.js';

const isRoot = process.getuid?.() === 0;
if (!isRoot) console.log("[pending] the case of another user's folder skipped: only root can make a folder of another user");

describe('the --stuck-after state', () => {
  it('keeps the first-seen time while a key stays pending, forgets it once read, in a folder it makes 0700', () => {
    const base = tempDir('pending-');
    const file = join(base, 'state', 'p.json');
    expect([
      ...recordPending(
        new Map([
          ['a', 5],
          ['b', 7],
        ]),
        1000,
        file,
      ),
    ]).toEqual([
      ['a', { since: 1000, bytes: 5 }],
      ['b', { since: 1000, bytes: 7 }],
    ]);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    expect([...recordPending(new Map([['a', 9]]), 2000, file)]).toEqual([['a', { since: 1000, bytes: 9 }]]);
    expect([
      ...recordPending(
        new Map([
          ['a', 1],
          ['b', 1],
        ]),
        3000,
        file,
      ),
    ]).toEqual([
      ['a', { since: 1000, bytes: 1 }],
      ['b', { since: 3000, bytes: 1 }],
    ]);
    writeFileSync(file, JSON.stringify({ a: { since: 'yesterday', bytes: 1 } }));
    expect(recordPending(new Map([['a', 1]]), 4000, file).get('a')).toEqual({ since: 4000, bytes: 1 });
    rmSync(base, { recursive: true, force: true });
  });

  it('io looks: counters the quiet rule accepts keep the first time, others start again', () => {
    const file = join(tempDir('pending-quiet-'), 'p.json');
    // A rule of the caller's: here, a counter that only grew by less than 10 is quiet.
    const quiet = (a: string, b: string) => Number(b) - Number(a) < 10 && Number(b) >= Number(a);
    const look = (at: number, n: number) => recordLooks({ io: new Map([['s', String(n)]]), quiet }, at, file).io.get('s');
    expect(look(1000, 100)).toEqual({ since: 1000, counters: '100', previous: 'none' });
    expect(look(2000, 105)).toEqual({ since: 1000, counters: '105', previous: 'quiet' });
    expect(look(3000, 114)).toEqual({ since: 1000, counters: '114', previous: 'quiet' });
    expect(look(4000, 130)).toEqual({ since: 4000, counters: '130', previous: 'io' });
  });

  it('io looks: the same counters keep the first time and say so, others start again; each kind survives a look of the other; a file of unread looks alone still reads', () => {
    const file = join(tempDir('pending-io-'), 'p.json');
    const io = (at: number, counters: Record<string, string>) => [...recordLooks({ io: new Map(Object.entries(counters)) }, at, file).io];
    expect(io(1000, { s: '1:2:3:4', t: '5:5:5:5' })).toEqual([
      ['s', { since: 1000, counters: '1:2:3:4', previous: 'none' }],
      ['t', { since: 1000, counters: '5:5:5:5', previous: 'none' }],
    ]);
    expect(recordPending(new Map([['u', 3]]), 1500, file).get('u')).toEqual({ since: 1500, bytes: 3 });
    expect(io(2000, { s: '1:2:3:4', t: '5:5:6:5' })).toEqual([
      ['s', { since: 1000, counters: '1:2:3:4', previous: 'quiet' }],
      ['t', { since: 2000, counters: '5:5:6:5', previous: 'io' }],
    ]);
    // The unread look survived the io looks; the io key not seen at 3000 is forgotten.
    expect(recordPending(new Map([['u', 4]]), 2500, file).get('u')).toEqual({ since: 1500, bytes: 4 });
    expect(io(3000, { s: '1:2:3:4' })).toEqual([['s', { since: 1000, counters: '1:2:3:4', previous: 'quiet' }]]);
    expect(io(4000, { t: '5:5:6:5' })).toEqual([['t', { since: 4000, counters: '5:5:6:5', previous: 'none' }]]);
    writeFileSync(file, JSON.stringify({ u: { since: 7, bytes: 1 } }));
    expect(recordLooks({ unread: new Map([['u', 1]]), io: new Map([['s', 'x']]) }, 5000, file)).toEqual({
      unread: new Map([['u', { since: 7, bytes: 1 }]]),
      io: new Map([['s', { since: 5000, counters: 'x', previous: 'none' }]]),
    });
  });

  it('the default file is in the run registry: a private folder of this user (harness/registry/registry.ts)', () => {
    const saved = process.env.CRASH_DRILL_ORPHANS_STATE;
    delete process.env.CRASH_DRILL_ORPHANS_STATE;
    try {
      expect(pendingFile()).toBe(join(registryPath(), 'orphans-pending.json'));
      const st = lstatSync(registryPath());
      expect([st.isDirectory(), st.uid, st.mode & 0o777]).toEqual([true, process.geteuid?.(), 0o700]);
    } finally {
      if (saved !== undefined) process.env.CRASH_DRILL_ORPHANS_STATE = saved;
    }
  });

  it('a state file that is a symlink is not followed, and one that is not a regular file of ours is not believed', () => {
    const dir = tempDir('pending-links-');
    const target = join(dir, 'target.json');
    const before = JSON.stringify({ a: { since: 1, bytes: 5 } });
    writeFileSync(target, before);
    const file = join(dir, 'p.json');
    symlinkSync(target, file);
    // Read through the link, the key would keep since 1; it is a first look, and the link is replaced, not written through.
    expect(recordPending(new Map([['a', 5]]), 1000, file).get('a')).toEqual({ since: 1000, bytes: 5 });
    expect(readFileSync(target, 'utf8')).toBe(before);
    expect(lstatSync(file).isFile()).toBe(true);
    // The same record as a regular file of ours is believed.
    writeFileSync(file, before);
    expect(recordPending(new Map([['a', 5]]), 2000, file).get('a')).toEqual({ since: 1, bytes: 5 });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a state folder of ours open to others refuses, naming it and the variable that named it; made private, it is used', () => {
    const dir = join(tempDir('pending-open-'), 'state');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o777);
    const file = join(dir, 'p.json');
    const uid = process.geteuid?.();
    expect(() => recordPending(new Map([['a', 5]]), 1000, file)).toThrow(
      new RegistryError(
        `the orphans state folder ${dir} (of CRASH_DRILL_ORPHANS_STATE) is not private: expected a folder (not a symlink) owned by uid ${uid} with mode 0700 (no group or other permissions), got a folder owned by uid ${uid} with mode 0777; refused before anything started. Fix it, or set CRASH_DRILL_ORPHANS_STATE to a file in another folder of yours with mode 0700.`,
        dir,
      ),
    );
    expect(readdirSync(dir)).toEqual([]);
    chmodSync(dir, 0o700);
    expect(recordPending(new Map([['a', 5]]), 2000, file).get('a')).toEqual({ since: 2000, bytes: 5 });
    expect(readdirSync(dir)).toEqual(['p.json']);
  });

  it.skipIf(!isRoot)(
    "a folder of another user, or a symlink to it, refuses with the folder, its owner and mode (root only: it makes the other user's folder)",
    () => {
      const base = tempDir('pending-other-');
      try {
        const theirs = join(base, 'theirs');
        mkdirSync(theirs, { mode: 0o700 });
        const file = join(theirs, 'p.json');
        writeFileSync(file, JSON.stringify({ a: { since: 1, bytes: 5 } }));
        chownSync(theirs, 65534, 65534);
        chownSync(file, 65534, 65534);
        expect(() => recordPending(new Map([['a', 5]]), 1000, file)).toThrow(
          new RegistryError(
            `the orphans state folder ${theirs} (of CRASH_DRILL_ORPHANS_STATE) is not private: expected a folder (not a symlink) owned by uid 0 with mode 0700 (no group or other permissions), got a folder owned by uid 65534 with mode 0700; refused before anything started. Fix it, or set CRASH_DRILL_ORPHANS_STATE to a file in another folder of yours with mode 0700.`,
            theirs,
          ),
        );
        const link = join(base, 'link');
        symlinkSync(theirs, link);
        expect(() => recordPending(new Map([['a', 5]]), 2000, join(link, 'p.json'))).toThrow(
          /^the orphans state folder .*\/link \(of CRASH_DRILL_ORPHANS_STATE\) is not private: .*, got a symlink owned by uid 0 with mode 0777;/,
        );
        expect(readdirSync(theirs)).toEqual(['p.json']);
        // A record of another user's in a folder of ours is not believed: a first look.
        const mine = join(base, 'mine');
        mkdirSync(mine, { mode: 0o700 });
        writeFileSync(join(mine, 'p.json'), JSON.stringify({ a: { since: 1, bytes: 5 } }));
        chownSync(join(mine, 'p.json'), 65534, 65534);
        expect(recordPending(new Map([['a', 5]]), 3000, join(mine, 'p.json')).get('a')).toEqual({ since: 3000, bytes: 5 });
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  );
});
