/**
 * The drill under each client read since the first eight (Cline, the Cline CLI, Roo Code,
 * Continue, OpenCode, Amazon Q CLI; Claude Code's reconnect, Claude Desktop and Cursor as
 * observed) gives exactly the no-survivors verdicts that a stand-in client of that profile
 * measured (bench/client-profiles/: the SDK's own StdioClientTransport at the version each client
 * pins, a raw Node client for the Cline CLI, scripted ones for the rest; measured.json), stop and
 * crash, over the fakes the bench measured; a crash under a profile with the facts of one before
 * it is not repeated, its verdict the drill's that ran. Every profile has both a pass and a fail,
 * and the record shows the steps that tell these clients apart.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResults } from '../../harness/results/types.js';
import { ensureBuilt } from '../fake-servers/support/subjects.js';
import { crashLeftOut, drillEvents, expectedTable, keysOf, leftOut, MORE_PROFILES, runMatrix, verdictsOf } from './support/profile-matrix.js';

beforeAll(ensureBuilt);

describe('the drill under the clients read since', () => {
  let results: RunResults;
  let out: string;

  beforeAll(async () => {
    const run = await runMatrix(MORE_PROFILES);
    expect(run.stderr).not.toMatch(/error/i);
    ({ out, results } = run);
  }, 1_200_000);

  it('gives exactly the measured no-survivors verdicts, per profile, in stop and crash', () => {
    expect(results.drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`)).toEqual([]);
    expect(verdictsOf(results)).toEqual(expectedTable(MORE_PROFILES));
  });

  it('drills a crash once per set of facts: Roo Code as Cline, and four clients as the Cline CLI', () => {
    const asClineCli = ['opencode', 'claude-code-reconnect', 'claude-desktop', 'cursor'] as const;
    expect(leftOut(results)).toEqual(crashLeftOut([['roo-code', 'cline'], ...asClineCli.map((p) => [p, 'cline-cli'] as [typeof p, 'cline-cli'])]));
    expect(results.drills).toHaveLength(Object.keys(expectedTable(MORE_PROFILES)).length - leftOut(results).length);
  });

  it('each profile is proven both ways: it has a pass and a fail', () => {
    const table = expectedTable(MORE_PROFILES);
    for (const profile of MORE_PROFILES) expect(new Set(keysOf(profile, table).map(([, v]) => v)), profile).toEqual(new Set(['pass', 'fail']));
  });

  it('the record shows the steps that tell them apart', () => {
    const steps = (key: string) =>
      drillEvents(out, results, key)
        .filter((e) => e.type === 'stop-step')
        .map((e) => e as unknown as { step: { kind: string; to?: string }; result: string; targets?: { pid: number }[] });
    // Claude Desktop drops the server: one step, nothing sent.
    expect(steps('leaks-child/after-response/stop@claude-desktop').map((s) => [s.step.kind, s.result])).toEqual([['abandon', 'done']]);
    // Cursor closes stdin and does nothing else.
    expect(steps('leaks-child/after-response/stop@cursor').map((s) => [s.step.kind, s.result])).toEqual([['close-stdin', 'done']]);
    // OpenCode's sweep reaches the helper below the server, and not the server (the direct child).
    const events = drillEvents(out, results, 'leaks-child/after-response/stop@opencode');
    const child = events.find((e) => e.type === 'subject-spawned') as { pid: number } | undefined;
    const sweep = steps('leaks-child/after-response/stop@opencode')[0];
    expect(sweep).toMatchObject({ step: { kind: 'signal', to: 'descendants' }, result: 'sent' });
    expect(sweep.targets?.length).toBeGreaterThan(0);
    expect(sweep.targets?.map((t) => t.pid)).not.toContain(child?.pid);
    // Roo Code's SDK 1.12.0 and the Cline CLI: a lone SIGTERM; Cline's SDK 1.30.0: the ladder, ended early by the exit.
    expect(steps('well-behaved/after-response/stop@roo-code').map((s) => [s.step.kind, s.result])).toEqual([['signal', 'sent']]);
    expect(steps('well-behaved/after-response/stop@cline-cli').map((s) => [s.step.kind, s.result])).toEqual([['signal', 'sent']]);
    expect(steps('well-behaved/after-response/stop@cline').map((s) => [s.step.kind, s.result])).toEqual([
      ['close-stdin', 'done'],
      ['wait-ms', 'ended-early'],
      ['signal', 'skipped'],
      ['wait-ms', 'ended-early'],
      ['signal', 'skipped'],
    ]);
  });
});
