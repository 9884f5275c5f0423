/**
 * Which drills wait on another's evidence (harness/plan/by-evidence.ts, closeTwins) and what in that
 * evidence leaves them out (harness/evidence/client-signals.ts, quitReachedNothing), both ways.
 * The drills themselves: test/run/by-evidence.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { quitReachedNothing } from '../../harness/evidence/client-signals.js';
import type { DrillEvidence, EvidenceEvent } from '../../harness/evidence/types.js';
import { parseScenario } from '../../harness/config/index.js';
import { closeTwins } from '../../harness/plan/by-evidence.js';
import { planRun } from '../../harness/plan/plan.js';
import { type ScenarioParts, scenarioYaml } from '../support/scenarios.js';

function plan(parts: ScenarioParts, profiles = ['ts-sdk', 'cursor']) {
  const yaml = scenarioYaml({
    id: 's',
    subject: { command: 'node', args: ['server.js'] },
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['idle', 'after-response'],
    'client-profiles': profiles,
    ...parts,
  });
  return planRun([parseScenario(yaml, '/p/s.yaml')]).drills;
}

const named = (drills: ReturnType<typeof plan>, twins: Map<number, number>) => [...twins].map(([stop, close]) => [drills[stop].key, drills[close].key]);

describe('closeTwins', () => {
  it('pairs each stop drill with the close drill of its point and profile', () => {
    const drills = plan({ modes: ['crash', 'close', 'stop'] });
    expect(named(drills, closeTwins(drills))).toEqual([
      ['s/idle/stop', 's/idle/close'],
      ['s/idle/stop@cursor', 's/idle/close@cursor'],
      ['s/after-response/stop', 's/after-response/close'],
      ['s/after-response/stop@cursor', 's/after-response/close@cursor'],
    ]);
  });

  it('pairs none without a close drill, or where the recovery retry runs', () => {
    const withoutClose = plan({ modes: ['crash', 'stop'] });
    expect(closeTwins(withoutClose).size).toBe(0);
    const retried = plan({ modes: ['close', 'stop'], retry: true });
    expect(closeTwins(retried).size).toBe(0);
    // A close drill of another profile is no twin.
    const stops = plan({ modes: ['stop'] }, ['cursor']);
    const closes = plan({ modes: ['close'] }, ['ts-sdk']);
    expect(closeTwins([...closes, ...stops]).size).toBe(0);
  });
});

function evidence(mode: 'close' | 'stop', events: Partial<EvidenceEvent>[]): DrillEvidence {
  return { meta: { mode } as DrillEvidence['meta'], events: events.map((e, i) => ({ t: i, ...e }) as EvidenceEvent) };
}
const QUIT = { type: 'client-quit', how: 'quit' } as const;

describe('quitReachedNothing', () => {
  it('is true where the close drill quit with the server exited and nothing alive, or nothing alive it can reach', () => {
    expect(quitReachedNothing(evidence('close', [{ ...QUIT, alive: 0, serverExited: true }]))).toBe(true);
    expect(quitReachedNothing(evidence('close', [{ ...QUIT, alive: 2, reachable: 0, serverExited: true }]))).toBe(true);
  });

  it('is false where anything was left, the exit was not recorded, a harness error came, or it is no close drill', () => {
    expect(quitReachedNothing(evidence('close', [{ ...QUIT, alive: 1, serverExited: true }]))).toBe(false);
    expect(quitReachedNothing(evidence('close', [{ ...QUIT, alive: 2, reachable: 1, serverExited: true }]))).toBe(false);
    expect(quitReachedNothing(evidence('close', [{ ...QUIT, alive: 1, reachable: 0, serverExited: false }]))).toBe(false);
    expect(quitReachedNothing(evidence('close', [{ ...QUIT, alive: 0, serverExited: false }]))).toBe(false);
    // A log written before the quit said what it could reach.
    expect(quitReachedNothing(evidence('close', [QUIT]))).toBe(false);
    expect(quitReachedNothing(evidence('close', []))).toBe(false);
    expect(
      quitReachedNothing(
        evidence('close', [
          { type: 'harness-error', phase: 'kill', message: 'x' },
          { ...QUIT, alive: 0, serverExited: true },
        ]),
      ),
    ).toBe(false);
    expect(quitReachedNothing(evidence('stop', [{ ...QUIT, alive: 0, serverExited: true }]))).toBe(false);
  });
});
