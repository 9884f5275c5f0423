/**
 * End to end: a CLI run hands its reporters the drills from its spool (harness/results/drill-spool.ts),
 * `crash-drill report` hands them the array it read from results.json; both write the same bytes.
 * The spool is in the report folder while the reporters run (a reporter module of the test sees
 * it) and gone once the run has ended.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { runReportScenarios, type ReportRun } from './fixtures/cli-run.js';

/** A reporter module: at the run's end, what the report folder holds and what the drills list says. */
const WATCHER = `
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
export function create({ outDir }) {
  return {
    name: 'watcher',
    onRunEnd(results) {
      const drills = [...results.drills].map((d) => d.key);
      writeFileSync(join(outDir, '..', 'watched.json'), JSON.stringify({ files: readdirSync(outDir).sort(), isArray: Array.isArray(results.drills), length: results.drills.length, drills }));
    },
  };
}
`;

let run: ReportRun;
let again: string;
beforeAll(async () => {
  const watcher = join(tempDir('crash-drill-spool-watcher-'), 'watcher.mjs');
  writeFileSync(watcher, WATCHER);
  try {
    run = await runReportScenarios(['--reporter', `junit,markdown,html,${watcher}`]);
  } finally {
    rmSync(join(watcher, '..'), { recursive: true, force: true });
  }
  again = tempDir('crash-drill-spool-again-');
  const report = await runCli(['report', run.out, '--out', again, '--reporter', 'junit,markdown,html']);
  if (report.code !== 0) throw new Error(`crash-drill report exited ${report.code}\n${report.stderr}`);
}, 90_000);
afterAll(() => {
  if (run) rmSync(run.dir, { recursive: true, force: true });
  if (again) rmSync(again, { recursive: true, force: true });
});

describe('a CLI run reports from its spool', () => {
  it('writes results.json, junit.xml, summary.md and report.html byte for byte as crash-drill report writes them from results.json', () => {
    for (const file of ['results.json', 'junit.xml', 'summary.md', 'report.html']) {
      const fromSpool = readFileSync(join(run.out, file), 'utf8');
      expect(readFileSync(join(again, file), 'utf8'), file).toBe(fromSpool);
    }
    // The comparison is not vacuous: the reports name every drill of the run.
    const keys = run.results.drills.map((d) => d.key);
    expect(keys.length).toBe(5);
    for (const key of keys)
      expect(readFileSync(join(run.out, 'summary.md'), 'utf8') + readFileSync(join(run.out, 'report.html'), 'utf8')).toContain(key.split('/')[0]);
  });

  it('hands the reporters a spool that is in the report folder while they run, and removes it after', () => {
    const watched = JSON.parse(readFileSync(join(run.dir, 'watched.json'), 'utf8')) as { files: string[]; isArray: boolean; length: number; drills: string[] };
    expect(watched.isArray).toBe(false);
    expect(watched.length).toBe(5);
    expect(watched.drills).toEqual(run.results.drills.map((d) => d.key));
    expect(watched.files.filter((f) => /^\.drills-.*\.jsonl$/.test(f))).toHaveLength(1);
    expect(readdirSync(run.out).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });
});
