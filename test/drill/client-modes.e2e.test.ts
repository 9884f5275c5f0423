/**
 * The modes that follow a client profile (harness/drill/executor/kill.ts, observation.ts), each
 * proven both ways, and which checks apply in them (docs/design.md, "Kill modes"):
 * - close against stop: the same stop sequence, then the client quits (its pipes close: EOF) or
 *   lives on. Gemini CLI's lone SIGTERM leaves a server that ignores SIGTERM but exits on EOF
 *   running behind a live client, and not behind one that quits.
 * - abandon: no EOF, no signal, the client lives on. A server that ends itself when its input goes
 *   quiet passes no-survivors; well-behaved, which waits for EOF, lives on and fails.
 * - the runtime's stdin close when the direct child exits: Gemini CLI's Node closes the stdin of
 *   a launcher it SIGTERMed, and the real server behind it, which exits on EOF, goes too.
 * - exit-on-eof applies only where the loss begins with EOF alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { KillMode } from '../../harness/config/index.js';
import type { ProfileName } from '../../harness/client-profiles/profiles.js';
import type { DrillEvidence } from '../../harness/evidence/types.js';
import type { DrillResult } from '../../harness/results/types.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { ensureBuilt } from '../fake-servers/support/subjects.js';
import { fakeSubject, scenarioFrom, scenarioYaml, type FakeServer } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

beforeAll(ensureBuilt);

function scenario(id: string, server: string, modes: KillMode[], profiles: ProfileName[], env: Record<string, string> = {}) {
  return scenarioFrom(
    scenarioYaml({
      id,
      subject: fakeSubject(server as FakeServer, env),
      target: { call: 'spawn-helper' },
      points: ['after-response'],
      modes,
      'client-profiles': profiles,
      timeouts: { point: 10000, handshake: 20000 },
      expect: { 'no-survivors': { grace: 1500 }, 'quiet-after-loss': true },
    }),
    tempDir(),
    `${id}.yaml`,
  );
}

const verdicts = (d: DrillResult) => Object.fromEntries(d.checks.map((c) => [c.id, c.verdict]));

describe('close, stop and abandon under a client profile', () => {
  let drills: DrillResult[];
  let logs: DrillEvidence[];
  const drill = (key: string) => drills.find((d) => d.key === key)!;

  beforeAll(async () => {
    const { results, evidence } = await runPlan(
      planRun([
        scenario('sigterm-ignored', 'ignores-sigterm-exits-on-eof', ['stop', 'close'], ['gemini-cli']),
        scenario('dropped', 'well-behaved', ['abandon', 'stop', 'crash'], ['ts-sdk', 'codex', 'goose']),
        scenario('dropped-idle', 'exits-when-idle', ['abandon'], ['ts-sdk']),
        scenario('behind-launcher', 'launcher-forwards-nothing', ['stop'], ['gemini-cli'], { FAKE_LAUNCH: 'well-behaved' }),
      ]),
      { concurrency: 1, containTermWaitMs: 500 },
    );
    drills = results.drills;
    logs = evidence;
    expect(drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`)).toEqual([]);
  }, 300_000);

  it('stop leaves a SIGTERM-ignoring server behind a live client; close hands it EOF as the client quits', () => {
    expect(verdicts(drill('sigterm-ignored/after-response/stop@gemini-cli'))['no-survivors']).toBe('fail');
    expect(verdicts(drill('sigterm-ignored/after-response/close@gemini-cli'))['no-survivors']).toBe('pass');
  });

  it('abandon: a server that waits for EOF lives on (a logical orphan); one that notices the quiet ends itself', () => {
    expect(verdicts(drill('dropped/after-response/abandon'))).toEqual({ 'no-survivors': 'fail', 'stdout-clean': 'pass' });
    expect(verdicts(drill('dropped-idle/after-response/abandon'))).toEqual({ 'no-survivors': 'pass', 'stdout-clean': 'pass' });
    // The live client is no survivor; the server and its helper are.
    expect(drill('dropped/after-response/abandon').survivors).toHaveLength(2);
  });

  it('exit-on-eof applies where the loss begins with EOF alone', () => {
    // ts-sdk closes stdin first; codex signals first; goose's death signals (its crash), its stop closes stdin first.
    expect(verdicts(drill('dropped/after-response/stop'))['exit-on-eof']).toBe('pass');
    expect(verdicts(drill('dropped/after-response/crash'))['exit-on-eof']).toBe('pass');
    expect(verdicts(drill('dropped/after-response/stop@codex'))['exit-on-eof']).toBeUndefined();
    expect(verdicts(drill('dropped/after-response/stop@goose'))['exit-on-eof']).toBe('pass');
    expect(verdicts(drill('dropped/after-response/crash@goose'))['exit-on-eof']).toBeUndefined();
    for (const key of ['dropped/after-response/stop@codex', 'dropped/after-response/crash@goose'])
      expect(verdicts(drill(key))['no-survivors'], key).toBe('pass');
  });

  it("the runtime's stdin close at the launcher's exit reaches the real server behind it", () => {
    const d = drill('behind-launcher/after-response/stop@gemini-cli');
    expect(verdicts(d)['no-survivors']).toBe('pass');
    const events = logs.find((e) => e.meta.drillId === d.id)!.events;
    const closed = events.find((e) => e.type === 'runtime-stdin-closed');
    const launcherExit = events.find((e) => e.type === 'subject-exit');
    expect(closed).toBeDefined();
    expect(launcherExit).toMatchObject({ signal: 'SIGTERM' });
    // No stop step closed stdin: Gemini CLI's SDK 1.23 only sends SIGTERM.
    expect(events.filter((e) => e.type === 'stop-step').map((e) => (e as { step: { kind: string } }).step.kind)).toEqual(['signal']);
  });
});
