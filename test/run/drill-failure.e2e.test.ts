/**
 * A failure in a drill's own code while later drills still wait for admission (here a reporter
 * whose onDrillEnd throws, at one drill at a time): the run ends as the harness's failure, with
 * the error and exit 4, once the drill in flight is done. It ended as Node's unhandled
 * rejection: exit 1 at once, no results, no "the harness failed" line (a suite run's uid-65534
 * matrix CLI exited 1 within 1.5 s and wrote no results.json).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

describe("a drill's failure while others wait for admission", () => {
  it('ends the run as the harness failed (exit 4, the error on stderr), not as an unhandled rejection (exit 1, nothing said)', async () => {
    const dir = tempDir('crash-drill-drill-failure-');
    try {
      const reporter = join(dir, 'throws.mjs');
      writeFileSync(reporter, "export default { onDrillEnd() { throw new Error('onDrillEnd failed on purpose'); } };\n");
      writeFileSync(
        join(dir, 'four.yaml'),
        scenarioYaml({
          id: 'four',
          subject: fakeSubject('well-behaved'),
          target: { call: 'echo' },
          points: ['idle', 'after-response'],
          modes: ['crash', 'close'],
        }),
      );
      const run = await runCli(['run', join(dir, 'four.yaml'), '--out', join(dir, 'out'), '--concurrency', '1', '--reporter', reporter]);
      expect(run.stderr).toContain('crash-drill: the harness failed: Error: onDrillEnd failed on purpose');
      expect(run.code, run.stderr).toBe(4);
      // The first drill ended (the console printed it before the reporter threw); none was admitted after it.
      expect(run.stdout.match(/^\[\d+\/4\]/gm), run.stdout).toEqual(['[1/4]']);
      const runId = /run (cd-[\w-]+)/.exec(run.stdout)?.[1];
      expect(runId, run.stdout).toBeDefined();
      expect(markedProcesses(runId)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
