/**
 * A run's drills on disk (harness/results/drill-spool.ts): what the reporters read back is what
 * was written, in plan order, and every report of the same run is the same bytes whether the
 * reporters get the drills in an array or from the spool. The sha256 sums below are of the
 * reports the reporters wrote for these fixtures while they still took every drill in an array;
 * junit.xml's since it shows the cleanup expectation (a suite added after the last scenario's),
 * the console's since it ends with the expectation table, report.html's since each check links to
 * what it tests, results.json's and report.html's since every drill names its client profile
 * (`clientProfile`; the other reports of a run of the default profile alone did not change).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DrillSpool, replaceDrill } from '../../harness/results/drill-spool.js';
import type { DrillResult, RunResults } from '../../harness/results/types.js';
import { manyDrills } from '../reports/fixtures/many-drills.js';
import { reportHashes } from '../reports/fixtures/report-hashes.js';
import { tempDir } from '../support/temp-dir.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const dir = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

/** The reports the array-taking reporters wrote for manyDrills(40) (inline page) and manyDrills(600) (a file a drill). */
const BEFORE: Record<number, Record<string, string>> = {
  40: {
    console: '2d7026472caa0f303d714883b0f28afc2f0d63781510a594e71348290d6c0e35',
    'junit.xml': 'e7e8ee3a5d3be387f20932308765a5240f24c8b76d82147e5055354c24f2a98b',
    'report.html': 'bbe04c90584c1a60fad6649a1f6eb4d864212812f99be9503e3c45acd21b6968',
    'results.json': 'fabddd34e799bd3cd0a3636bf8dc51ab1f51e20b10749e25221919a28f0cfda7',
    'summary.md': 'a82aa12c8e0ec4e740a0e5062bde1da0f4f5889e762f518470b406b3a50e599e',
  },
  600: {
    console: '3297038533c97b737fca70d1fef0231a94e52cc77683b5e690acabeee5a8caef',
    'junit.xml': '0f8cb614de6b2169b18bebe41546fe5aeff0c3169f695ad22766bd80e8e9ed0e',
    'report.html': '5f865736ae1d8b74da30aebd45aef217c5ec47f9691e05b22203b7e4e0d56e7c',
    'results.json': '0c918916803ae625657afd1c2cce47c9ead3f25958749847bf994e66228a42a5',
    'summary.md': 'e89627e6510acae02b6416fe9367edb06fa80ca3a8f9ba69273b7132e93efb65',
    'report-drills/': 'c280fb151f7022b37e39191b147fe047c06dd50e90d7d12ed288c3f0a9524dff',
  },
};

/** The run with its drills in a spool, written in reverse order as drills that end out of order would be. */
function spooled(results: RunResults, file: string): { report: Omit<RunResults, 'drills'> & { drills: DrillSpool }; spool: DrillSpool } {
  const spool = new DrillSpool(file);
  for (let i = results.drills.length - 1; i >= 0; i--) spool.put(i, results.drills[i]);
  return { report: { ...results, drills: spool }, spool };
}

describe('DrillSpool', () => {
  it('reads back in plan order what was written in any order, skipping positions never written', () => {
    const drills = manyDrills(5).drills;
    const file = join(dir('crash-drill-spool-'), 'drills.jsonl');
    const spool = new DrillSpool(file);
    for (const i of [4, 0, 2]) spool.put(i, drills[i]);
    expect(spool.length).toBe(3);
    expect([...spool]).toEqual([drills[0], drills[2], drills[4]]);
    expect(spool.at(1)).toEqual(drills[2]);
    expect(spool.at(-1)).toEqual(drills[4]);
    expect(spool.at(3)).toBeUndefined();
    spool.put(1, drills[1]);
    expect([...spool].map((d) => d.id)).toEqual([0, 1, 2, 4].map((i) => drills[i].id));
    spool.close();
    expect(existsSync(file)).toBe(false);
  });

  it('replaces a drill by its index in the list, in a spool as in an array', () => {
    const drills = manyDrills(3).drills;
    const spool = new DrillSpool(join(dir('crash-drill-spool-'), 'drills.jsonl'));
    for (const [i, d] of drills.entries()) spool.put(i, d);
    const changed: DrillResult = { ...drills[1], verdict: 'known', reason: 'known (baseline): it was' };
    replaceDrill(spool, 1, changed);
    const array = [...drills];
    replaceDrill(array, 1, changed);
    expect([...spool]).toEqual(array);
    expect(spool.length).toBe(3);
    expect(() => spool.set(3, changed)).toThrow(RangeError);
    spool.close();
  });
});

describe('the reports of a run, from an array and from a spool', () => {
  for (const count of [40, 600]) {
    it(`are the bytes the array-taking reporters wrote (${count} drills)`, async () => {
      const results = manyDrills(count);
      const fromArray = await reportHashes(results, dir('crash-drill-spool-array-'));
      const { report, spool } = spooled(results, join(dir('crash-drill-spool-'), 'drills.jsonl'));
      const fromSpool = await reportHashes(report, dir('crash-drill-spool-spooled-'));
      spool.close();
      expect(fromArray).toEqual(BEFORE[count]);
      expect(fromSpool).toEqual(BEFORE[count]);
    });
  }

  it('differ when one drill differs (the comparison sees a change)', async () => {
    const results = manyDrills(40);
    const { report, spool } = spooled(results, join(dir('crash-drill-spool-'), 'drills.jsonl'));
    spool.set(7, { ...results.drills[7], durationMs: results.drills[7].durationMs + 1 });
    const hashes = await reportHashes(report, dir('crash-drill-spool-changed-'));
    spool.close();
    for (const file of ['results.json', 'junit.xml', 'report.html']) expect(hashes[file], file).not.toBe(BEFORE[40][file]);
    // summary.md and the console show a passed drill's time nowhere: the same bytes.
    expect(hashes['summary.md']).toBe(BEFORE[40]['summary.md']);
  });

  it('leave the spool file in no report folder', () => {
    for (const d of dirs) if (existsSync(d)) expect(readdirSync(d).filter((f) => f.endsWith('.jsonl') && f.startsWith('.drills'))).toEqual([]);
  });
});
