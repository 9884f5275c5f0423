/**
 * The confusion matrix: every fake server × every kill point of the engine × every kill mode,
 * with the verdict of every check asserted exactly. well-behaved passes everything everywhere;
 * each mutant fails exactly the checks its one behaviour breaks, at the points where it can
 * show. It runs once here; repeated runs belong to the flakiness benchmark. The same table holds
 * for an ordinary user (test/unprivileged/unprivileged.e2e.test.ts). Here each drill's client is a
 * process of its own (`--client process`); the ordinary user's run, like the remote and era
 * matrices, uses the default in-process client: the one table holds for both clients. All run
 * with the default phase-aware schedule (harness/run/scheduler.ts).
 */
import { describe, expect, it } from 'vitest';
import { listDrillCgroups } from '../../harness/observe/index.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import type { DrillResult } from '../../harness/results/types.js';
import { DEADLINE, expectedTable, MODES, matrixYaml, POINTS, table, unexplained } from '../support/engine-matrix.js';
import { FAKE_SERVERS, scenarioFrom } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

function scenarios() {
  const dir = tempDir();
  return FAKE_SERVERS.map((server) => scenarioFrom(matrixYaml(server), dir, `${server}.yaml`));
}

describe('the confusion matrix', () => {
  const runs: DrillResult[][] = [];

  it('every server × point × mode gives exactly the expected verdicts', async () => {
    const { results } = await runPlan(planRun(scenarios()), { client: 'process', containTermWaitMs: 500 });
    runs.push(results.drills);
    expect(results.drills).toHaveLength(FAKE_SERVERS.length * POINTS.length * MODES.length);
    expect(unexplained(results.drills)).toEqual([]);
    expect(table(results.drills)).toEqual(expectedTable());
    // Each drill's cgroup goes with it, its released holder's exit waited for: none of the run's is left.
    expect(
      listDrillCgroups()
        .filter((cg) => cg.drillId.startsWith(`${results.runId}.`))
        .map((cg) => cg.drillId),
    ).toEqual([]);
  }, 600_000);

  it('the evidence behind the verdicts says what each mutant did', () => {
    const drills = runs.flat();
    expect(drills.length).toBeGreaterThan(0);
    const find = (key: string) => drills.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;

    // well-behaved exits cleanly on EOF, on its own.
    const wb = find('well-behaved/after-response/crash');
    expect(wb.exit).toMatchObject({ class: 'clean', code: 0, signal: null });
    expect(wb.exit!.afterLossMs!).toBeLessThanOrEqual(DEADLINE);
    expect(wb.containment.every((r) => r.endedBy === 'already-gone' || r.endedBy === 'SIGTERM')).toBe(true);

    // ignores-eof under close: the client's SIGTERM ended it (it handles SIGTERM and exits 0), and the record says who sent it.
    const ieClose = find('ignores-eof/idle/close');
    expect(ieClose.exit).toMatchObject({ class: 'clean', code: 0, endedAfter: "SIGTERM from the client's shutdown" });
    expect(ieClose.checks.find((c) => c.id === 'exit-on-eof')!.summary).toContain("SIGTERM from the client's shutdown");

    // ignores-sigterm under crash: only containment's SIGKILL ended it.
    const isCrash = find('ignores-sigterm/idle/crash');
    expect(isCrash.forcedContainment).toBe(true);
    expect(isCrash.exit).toMatchObject({ class: 'signal', signal: 'SIGKILL', signalFrom: 'harness' });
    expect(isCrash.survivors.map((s) => s.cmdline.join(' '))).toEqual([expect.stringContaining('ignores-sigterm.js')]);

    // slow-exit: it did exit on its own, just too late.
    const slow = find('slow-exit/idle/crash');
    expect(slow.exit).toMatchObject({ class: 'clean', code: 0 });
    expect(slow.exit!.afterLossMs!).toBeGreaterThan(DEADLINE);
    expect(slow.survivors).toEqual([]);

    // leaks-child: the survivor is its helper, re-parented away from the dead server.
    const leak = find('leaks-child/after-response/crash');
    expect(leak.survivors).toHaveLength(1);
    expect(leak.survivors[0].cmdline.join(' ')).toContain('helper');
    expect(leak.survivors[0].ppid).not.toBe(leak.exit!.pid);

    // daemonizes: the daemon sits in its own session, yet the drill still found it.
    const daemon = find('daemonizes/after-response/crash');
    expect(daemon.survivors).toHaveLength(1);
    expect(daemon.survivors[0].sid).toBe(daemon.survivors[0].pid);
    expect(daemon.survivors[0].foundBy.length).toBeGreaterThan(0);

    // The held-out cases: a daemon with an empty environment in a session of its own, by a
    // double fork and by `setsid -f env -i` through a shell. Here the cgroup holds them.
    for (const key of ['daemonizes-clean-env/after-response/crash', 'shell-daemon/after-response/crash']) {
      const d = find(key);
      expect(d.survivors, key).toHaveLength(1);
      expect(d.survivors[0].sid, key).toBe(d.survivors[0].pid);
      expect(d.survivors[0].foundBy, key).toContain('cgroup');
      expect(d.survivors[0].foundBy, key).toContain('subreaper');
    }

    // stdout-noise: the banner is quoted in the failure.
    const noise = find('stdout-noise/idle/hang');
    expect(noise.checks.map((c) => c.id)).toEqual(['stdout-clean']);
    expect(noise.checks[0].summary).toMatch(/not JSON-RPC, first: ".+"/);

    // The child-spawned point names the child it saw.
    const spawned = find('well-behaved/child-spawned/crash');
    expect(spawned.verdict).toBe('pass');
  });
});
