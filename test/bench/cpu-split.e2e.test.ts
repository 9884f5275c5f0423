/**
 * The bench's CPU split (bench/cpu-split.ts) on one real drill with a client process: the
 * drill's cgroup figure and its client's part come from the evidence (the drill-cpu event), and
 * must fit inside what this process's reaped descendants used, since the client and the server
 * are among them. Without cgroups there is no figure, and the split says it is not available.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allReaped, cpuSnapshot, cpuSplit } from '../../bench/cpu-split.js';
import { runQuiet, wellBehavedScenario } from '../../bench/drills.js';
import { eventsOf } from '../../harness/evidence/types.js';
import { cgroupSupport, clockTicksPerSecond } from '../../harness/observe/index.js';
import { packageRoot } from '../../harness/util/paths.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cpu-split-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the CPU split of a drill', () => {
  it('puts the server and the client inside the reaped descendants, and sums to the total', async () => {
    const scenario = await wellBehavedScenario(dir, join(packageRoot(), 'dist/fake-servers/well-behaved.js'), 'after-response');
    expect(await allReaped(10_000)).toEqual([]);
    const before = cpuSnapshot();
    const { evidence } = await runQuiet([scenario], undefined, 'process');
    // Every process of the drill is below this one: once each is reaped, its CPU is in cutime.
    expect(await allReaped(10_000)).toEqual([]);
    const after = cpuSnapshot();
    const split = cpuSplit(before, after, evidence);
    const children = after.childrenMs - before.childrenMs;
    expect(split.harnessMs).toBeGreaterThan(0);
    expect(split.totalMs).toBeCloseTo(split.harnessMs + children, 6);
    const cpu = eventsOf(evidence[0], 'drill-cpu');
    if (!cgroupSupport().available) {
      expect(cpu).toEqual([]);
      expect(split.cgroupMs).toBeNull();
      expect(split.note).toMatch(/not available/);
      return;
    }
    expect(cpu).toHaveLength(1);
    const { cgroupMs, clientMs } = cpu[0];
    // Both are Node processes that ran: each used CPU, and the client is part of the cgroup.
    expect(clientMs).not.toBeNull();
    expect(clientMs!).toBeGreaterThan(0);
    expect(cgroupMs).toBeGreaterThan(clientMs!);
    // cutime is read in clock ticks (truncated once, over the sum), the cgroup in µs.
    const tick = 1000 / clockTicksPerSecond();
    expect(cgroupMs).toBeLessThanOrEqual(children + tick);
    expect(split.cgroupMs).toBe(cgroupMs);
    expect(split.clientMs).toBe(clientMs);
    expect(split.serverMs).toBeCloseTo(cgroupMs - clientMs!, 6);
    expect(split.restMs!).toBeGreaterThanOrEqual(-tick);
    expect(split.unsplitMs).toBe(0);
    expect(split.serverMs! + split.clientMs! + split.harnessMs + split.restMs!).toBeCloseTo(split.totalMs, 6);
    expect(split.note).toBeNull();
  });
});
