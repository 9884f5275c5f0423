/**
 * What the server observes when its client goes away, for both clients: a client process
 * (`--client process`) and the SDK client in the harness with a stand-in as the server's
 * parent (`--client inprocess`, harness/drill/client/in-process-client.ts). The server
 * (fixtures/observer-server.mjs) writes down EOF on stdin, what a write to stdout gives after
 * it (EPIPE or ok), and every change of its parent, each with its time. Both clients must
 * produce the same observations in every loss mode:
 * - crash: EOF, EPIPE, and re-parenting from the client (or stand-in) to the drill's holder;
 * - close: EOF, the write still succeeds (the client reads on), the parent stays;
 * - hang: no EOF and the parent stays for the whole window.
 * The latencies from the kill to each observation are printed, not asserted as targets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClientKind } from '../../../harness/drill/client/drill-client.js';
import type { DrillEvidence } from '../../../harness/evidence/types.js';
import { planRun } from '../../../harness/plan/plan.js';
import { runPlan } from '../../../harness/run/run-plan.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';

type Seen = { drill: string; what: string; t: number; ppid?: number; from?: number; to?: number; result?: string; code?: string };

async function drill(kind: ClientKind, dir: string) {
  const log = join(dir, `${kind}.jsonl`);
  const yaml = scenarioYaml({
    id: `observer-${kind}`,
    subject: { command: 'node', args: [join(packageRoot(), 'test/drill/fixtures/observer-server.mjs')], cwd: packageRoot(), env: { OBSERVE_LOG: log } },
    target: { call: 'echo' },
    points: ['idle'],
    modes: ['crash', 'close', 'hang'],
    timeouts: { 'close-wait': 600 },
    expect: { 'exit-on-eof': { deadline: 600 }, 'no-survivors': { grace: 600 } },
  });
  const { results, evidence } = await runPlan(planRun([scenarioFrom(yaml, dir, `${kind}.yaml`)]), { concurrency: 1, client: kind, containTermWaitMs: 500 });
  const seen = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Seen);
  return { results, evidence, seen };
}

/** One drill's observations, relative to the kill: what the server saw and how long after. */
function observed(ev: DrillEvidence, seen: Seen[]) {
  const mine = seen.filter((s) => s.drill === ev.meta.drillId);
  const at = (type: string) => ev.events.find((e) => e.type === type) as unknown as { t: number; pid: number | null } | undefined;
  const kill = at('kill')!.t;
  const client = at('client-spawned')!.pid;
  const holder = at('holder')!.pid;
  // Only what the loss itself caused: containment ends the drill's processes afterwards.
  const contained = at('containment-start')!.t;
  const eof = mine.find((s) => s.what === 'eof' && s.t < contained);
  const write = eof && mine.find((s) => s.what === 'write-after-eof');
  const ppid = mine.find((s) => s.what === 'ppid' && s.t >= kill && s.t < contained);
  const start = mine.find((s) => s.what === 'start')!;
  return {
    shape: {
      parentAtStart: start.ppid === client ? 'client' : String(start.ppid),
      eof: eof !== undefined,
      writeAfterEof: write?.result ?? null,
      reparented: ppid ? `${ppid.from === client ? 'client' : ppid.from} -> ${ppid.to === holder ? 'holder' : ppid.to}` : null,
    },
    latency: { eof: eof ? eof.t - kill : null, reparent: ppid ? ppid.t - kill : null },
  };
}

describe('what the server observes when its client goes away', () => {
  it('is the same with a client process and with the in-process client, in every loss mode', async () => {
    const dir = tempDir('crash-drill-observe-');
    const shapes: Record<string, unknown> = {};
    for (const kind of ['process', 'inprocess'] as const) {
      const { results, evidence, seen } = await drill(kind, dir);
      expect(results.drills.map((d) => `${d.key} ${d.verdict}`)).toEqual([
        `observer-${kind}/idle/crash pass`,
        `observer-${kind}/idle/close pass`,
        `observer-${kind}/idle/hang pass`,
      ]);
      for (const ev of evidence) {
        const { shape, latency } = observed(ev, seen);
        shapes[`${kind} ${ev.meta.mode}`] = shape;
        console.log(`[observe] ${kind.padEnd(9)} ${ev.meta.mode.padEnd(5)} ${JSON.stringify(shape)} ms after the kill: ${JSON.stringify(latency)}`);
      }
    }
    const crash = { parentAtStart: 'client', eof: true, writeAfterEof: 'EPIPE', reparented: 'client -> holder' };
    const close = { parentAtStart: 'client', eof: true, writeAfterEof: 'ok', reparented: null };
    const hang = { parentAtStart: 'client', eof: false, writeAfterEof: null, reparented: null };
    expect(shapes).toEqual({
      'process crash': crash,
      'process close': close,
      'process hang': hang,
      'inprocess crash': crash,
      'inprocess close': close,
      'inprocess hang': hang,
    });
  }, 120_000);
});
