/**
 * The state of the --stuck-after rule (harness/orphans/pending.ts) on real files: a look keeps
 * the first-seen time of a key still pending and forgets a key no longer pending; a folder
 * another user owns, or a symlink to one, is neither read nor written (every look is then a
 * first look); a garbled record is a first look. The default folder is per user, mode 0700.
 */
import { chownSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pendingFile, recordPending } from '../../harness/orphans/pending.js';
import { tempDir } from '../support/scenarios.js';

const isRoot = process.getuid?.() === 0;

describe('the --stuck-after state', () => {
  it('keeps the first-seen time while a key stays pending, forgets it once read, in a folder it makes 0700', () => {
    const file = join(tempDir('pending-'), 'state', 'p.json');
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
  });

  it("the default file is in this user's own folder in tmp", () => {
    const saved = process.env.CRASH_DRILL_ORPHANS_STATE;
    delete process.env.CRASH_DRILL_ORPHANS_STATE;
    try {
      expect(pendingFile()).toBe(join(tmpdir(), `crash-drill-${process.getuid?.()}`, 'orphans-pending.json'));
    } finally {
      if (saved !== undefined) process.env.CRASH_DRILL_ORPHANS_STATE = saved;
    }
  });

  it.skipIf(!isRoot)("a folder of another user, or a symlink to it, is neither read nor written (root only: it makes the other user's folder)", () => {
    const base = tempDir('pending-other-');
    const theirs = join(base, 'theirs');
    mkdirSync(theirs);
    const file = join(theirs, 'p.json');
    writeFileSync(file, JSON.stringify({ a: { since: 1, bytes: 5 } }));
    chownSync(theirs, 65534, 65534);
    expect(recordPending(new Map([['a', 5]]), 1000, file).get('a')).toEqual({ since: 1000, bytes: 5 });
    const link = join(base, 'link');
    symlinkSync(theirs, link);
    expect(recordPending(new Map([['a', 5]]), 2000, join(link, 'p.json')).get('a')).toEqual({ since: 2000, bytes: 5 });
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);
  });
});
