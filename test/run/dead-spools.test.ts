/**
 * A run removes its drill spool (harness/results/drill-spool.ts) at its end; a SIGKILLed one
 * cannot, so the next run in the same report folder removes the spools of runs that are not
 * live, and leaves a live run's alone (two runs writing to one folder).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newRunId } from '../../harness/observe/index.js';
import { registerRun } from '../../harness/registry/index.js';
import { removeDeadSpools } from '../../harness/run/run-plan.js';
import { runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const registrations: { unregister(): void }[] = [];
afterEach(() => {
  for (const r of registrations.splice(0)) r.unregister();
});

describe("a killed run's drill spool", () => {
  it('is removed from the report folder when its run is dead, kept while it is live; other files and a folder of that name are kept', () => {
    const out = tempDir('crash-drill-dead-spools-');
    const dead = newRunId();
    const live = newRunId();
    registrations.push(registerRun(live));
    writeFileSync(join(out, `.drills-${dead}.jsonl`), '{}\n');
    writeFileSync(join(out, `.drills-${live}.jsonl`), '{}\n');
    writeFileSync(join(out, 'results.json'), '{}');
    mkdirSync(join(out, `.drills-${newRunId()}.jsonl`));
    expect(removeDeadSpools(out)).toEqual([`.drills-${dead}.jsonl`]);
    expect(existsSync(join(out, `.drills-${dead}.jsonl`))).toBe(false);
    expect(existsSync(join(out, `.drills-${live}.jsonl`))).toBe(true);
    expect(readdirSync(out)).toHaveLength(3);
    expect(removeDeadSpools(join(out, 'missing'))).toEqual([]);
  });

  it('a CLI run into that folder leaves no spool of its own or of the dead run', async () => {
    const dir = tempDir('crash-drill-dead-spools-cli-');
    const out = join(dir, 'out');
    mkdirSync(out);
    const dead = `.drills-${newRunId()}.jsonl`;
    writeFileSync(join(out, dead), '{}\n');
    writeFileSync(
      join(dir, 's.yaml'),
      scenarioYaml({ id: 'spool', subject: fakeSubject('well-behaved'), target: { call: 'echo' }, points: ['idle'], modes: ['crash'] }),
    );
    const run = await runCli(['run', join(dir, 's.yaml'), '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  }, 60_000);
});
