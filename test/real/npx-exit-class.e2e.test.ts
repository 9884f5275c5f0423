/**
 * The exit class behind `npx` is the server's own: server-memory through
 * `npx --no-install` is npm exec -> sh -c -> node, and sh reaps the node server at once, so the
 * observer mostly finds it gone with no status. The class then comes from npm exec's exit status,
 * which mirrors the server's; before, it was `unknown`. Either way the record names the server's
 * pid and says whose status it read.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrills, type RunResults } from '../../harness/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { markedProcesses } from '../support/markers.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

let results: RunResults;

beforeAll(async () => {
  ({ results } = await runDrills({
    scenarios: [join(packageRoot(), 'scenarios-real/memory-npx.yaml')],
    points: ['idle'],
    modes: ['crash', 'close'],
    concurrency: 1,
    out: tempDir('cd-npx-exit-'),
    reporters: ['json'],
  }));
}, 120_000);

afterAll(async () => {
  if (results) await until('no process of the run', () => markedProcesses(results.runId).length === 0);
});

describe('server-memory through npx --no-install', () => {
  it.each(['crash', 'close'])("idle/%s: the class is the node server's own exit, clean, not unknown", (mode) => {
    const d = results.drills.find((x) => x.mode === mode);
    expect(d?.verdict).toBe('pass');
    const exit = d?.exit;
    expect(exit).toMatchObject({ class: 'clean', code: 0, signal: null });
    expect(exit?.launcher?.command).toBe('npx --no-install @modelcontextprotocol/server-memory');
    expect(exit?.pid).not.toBe(exit?.launcher?.pid);
    // Its own status when the watch caught its zombie, else npm exec's, which mirrors it.
    expect(['server', 'launcher']).toContain(exit?.statusFrom);
    console.log(`npx idle/${mode}: class ${exit?.class} read from the ${exit?.statusFrom}'s status`);
  });
});
