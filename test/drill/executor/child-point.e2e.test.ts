/**
 * The child-spawned point fires on the child the call started, with real processes
 * (fake-servers/perl/spawns-after-probes.pl): not on a probe that ran and exited before it, not
 * on a fork that had not exec'd yet, and, when the scenario names it, on that program among two.
 * A call that starts no qualifying child leaves the point unreached: unknown, never a pass.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDrills } from '../../../harness/index.js';
import type { ScenarioInput } from '../../../harness/config/index.js';
import type { DrillEvidence } from '../../../harness/evidence/types.js';
import { short } from '../../../harness/drill/executor/child-point.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml } from '../../support/scenarios.js';
import { NPM_CHROMIUM_ARGS, npmChromium } from '../../reports/fixtures/npm-chromium.js';

const SCRIPT = join(packageRoot(), 'fake-servers/perl/spawns-after-probes.pl');
const SERVER_ARGV = ['perl', SCRIPT];

async function drill(call: string, repeat: number, extra: Partial<ScenarioInput> = {}) {
  const scenario = scenarioFrom(
    scenarioYaml({
      id: `child-${call}`,
      subject: { command: 'perl', args: [SCRIPT], name: 'spawns-after-probes' },
      protocol: '2025-11-25',
      target: { call },
      points: ['child-spawned'],
      modes: ['crash'],
      timeouts: { point: 3000, handshake: 20000 },
      expect: { 'exit-on-eof': { deadline: 2000 }, 'no-survivors': { grace: 1000 } },
      ...extra,
    }),
  );
  const { results, evidence } = await runDrills({ scenarios: [scenario], repeat });
  expect(results.drills).toHaveLength(repeat);
  return { drills: results.drills, evidence };
}

/** The argv the tracker first saw for a process, and the argv of each exec it saw after. */
function argvHistory(evidence: DrillEvidence, pid: number, startTime: number): string[][] {
  const out: string[][] = [];
  for (const e of evidence.events) {
    if ((e.type === 'process-new' || e.type === 'process-exec') && e.pid === pid && e.startTime === startTime) out.push(e.cmdline);
  }
  return out;
}

describe('child-spawned fires on the child the call started', () => {
  it('skips the probe and the fork before its exec: sleep 300, in 20 of 20 drills', async () => {
    const { drills, evidence } = await drill('probe-then-child', 20);
    for (const d of drills) {
      expect(d.verdict, d.reason).toBe('pass');
      expect(d.pointProcess?.cmdline, d.id).toEqual(['sleep', '300']);
      const ev = evidence.find((e) => e.meta.drillId === d.id)!;
      const p = d.pointProcess!;
      // The same process was first seen as a fork of the server, carrying its argv: the old point fired there.
      expect(argvHistory(ev, p.pid, p.startTime), d.id).toEqual([SERVER_ARGV, ['sleep', '300']]);
      expect(p.aliveMs).toBeGreaterThanOrEqual(200);
      const reached = ev.events.find((e) => e.type === 'point-reached');
      expect(reached).toMatchObject({ process: { pid: p.pid, startTime: p.startTime, cmdline: ['sleep', '300'] } });
    }
  });

  it('picks the named program among two long-lived children, and the first without a name', async () => {
    const named = await drill('two-children', 5, { child: { command: 'sleep' } });
    for (const d of named.drills) {
      expect(d.verdict, d.reason).toBe('pass');
      expect(d.pointProcess?.cmdline, d.id).toEqual(['sleep', '300']);
    }
    const first = await drill('two-children', 3);
    for (const d of first.drills) expect(d.pointProcess?.cmdline, d.id).toEqual(['tail', '-f', '/dev/null']);
  });

  it('on a server whose call starts a browser (a probe, then Node spawns Chromium): the browser, in 20 of 20 drills', async () => {
    const chromium = npmChromium();
    const server = join(packageRoot(), 'dist/fake-servers/opens-browser.js');
    const scenario = scenarioFrom(
      scenarioYaml({
        id: 'browser',
        subject: {
          command: 'node',
          args: [server],
          env: { ...chromium.env, FAKE_BROWSER: chromium.executablePath, FAKE_BROWSER_ARGS: JSON.stringify(NPM_CHROMIUM_ARGS) },
        },
        target: { call: 'open-page' },
        points: ['child-spawned'],
        modes: ['crash'],
        timeouts: { point: 10000, handshake: 20000 },
        expect: { 'exit-on-eof': { deadline: 3000 }, 'no-survivors': { grace: 2000 } },
      }),
    );
    const { results } = await runDrills({ scenarios: [scenario], repeat: 20 });
    expect(results.drills).toHaveLength(20);
    // Never the probe (node --version), never the fork still running the server's argv, never a process the browser started.
    for (const d of results.drills) {
      expect(d.verdict, d.reason).not.toMatch(/^(unknown|error)$/);
      expect(d.pointProcess?.cmdline.slice(0, 1), d.id).toEqual([chromium.executablePath]);
      expect(
        d.pointProcess?.cmdline.some((a) => a.startsWith('--type=')),
        d.id,
      ).toBe(false);
      expect(d.pointProcess?.cmdline.slice(-2), d.id).toEqual(['--headless', 'about:blank']);
      expect(d.verdict, d.reason).toBe('pass');
    }
  }, 180_000);

  it('is not reached when the call starts only a probe and a fork that never execs', async () => {
    const { drills } = await drill('no-child', 1, { timeouts: { point: 1500, handshake: 20000 } });
    const [d] = drills;
    expect(d.verdict).toBe('unknown');
    expect(d.pointProcess).toBeUndefined();
    expect(d.reason).toMatch(/^kill point child-spawned not reached within 1500 ms: no new descendant ran a program of its own for 200 ms: /);
    expect(d.reason).toContain(`(${short(SERVER_ARGV)}) still ran its parent's command line (a fork that had not exec'd)`);
  });
});
