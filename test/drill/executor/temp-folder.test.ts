/**
 * A drill's temp folder is named for its drill, so the sentinel of a run whose harness died
 * removes what its drills left (harness/drill/executor/temp-folder.ts): that run's own real folders, not
 * another run's, not a symlink planted under such a name, not another user's folder.
 */
import { chownSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDrillTemp, removeDrillTemps } from '../../../harness/drill/executor/temp-folder.js';
import { tempDir } from '../../support/temp-dir.js';

const isRoot = process.getuid?.() === 0;
if (!isRoot) console.log("[temp-folder] the case of another user's folder skipped: only root can make a folder of another user");

describe("a drill's temp folder", () => {
  it('is named for its drill and removed with its run, and only its run', () => {
    const run = 'cd-20261202T000000-aaaaaa';
    const other = 'cd-20261202T000000-bbbbbb';
    const mine = makeDrillTemp(`${run}.0`);
    writeFileSync(join(mine, 'state'), 'x');
    const theirs = makeDrillTemp(`${other}.0`);
    expect(mine).toMatch(new RegExp(`/crash-drill-${run}\\.0-[A-Za-z0-9]{6}$`));
    const victim = tempDir();
    const planted = join(mine, '..', `crash-drill-${run}.9-planted`);
    symlinkSync(victim, planted);
    try {
      expect(removeDrillTemps(run)).toBe(1);
      expect(existsSync(mine)).toBe(false);
      expect(existsSync(theirs)).toBe(true);
      expect(existsSync(victim)).toBe(true);
    } finally {
      removeDrillTemps(other);
      removeDrillTemps(run);
      rmSync(planted, { force: true });
    }
  });

  it.skipIf(!isRoot)("leaves another user's folder of that name alone (root)", () => {
    const run = 'cd-20261202T000000-cccccc';
    const base = tempDir();
    const foreign = join(base, `crash-drill-${run}.0-abcdef`);
    mkdirSync(foreign);
    chownSync(foreign, 65534, 65534);
    expect(removeDrillTemps(run, base)).toBe(0);
    expect(existsSync(foreign)).toBe(true);
  });
});
