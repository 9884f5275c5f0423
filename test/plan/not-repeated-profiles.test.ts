/**
 * One drill under client profiles that give it the same inputs (harness/plan/profile-inputs.ts):
 * proven both ways on profiles made for the test from a real one. Two profiles that differ only
 * in a fact the drill's mode does not read are one drill; a difference in any fact the mode
 * reads (each kind of fact, one case each) keeps them apart, and so does a fact no code knows yet.
 * Then the real profiles, and how results.json describes a drill left out.
 */
import { describe, expect, it } from 'vitest';
import { behaviourOf, type ClientBehaviour, PROFILE_NAMES, type ProfileRef } from '../../harness/client-profiles/profiles.js';
import { type KillMode, type KillPoint, parseScenario, type Scenario } from '../../harness/config/index.js';
import { notRepeatedEntries, withoutRepeats } from '../../harness/plan/not-repeated.js';
import { planRun } from '../../harness/plan/plan.js';
import type { PlannedDrill } from '../../harness/plan/types.js';
import { type ScenarioParts, scenarioYaml } from '../support/scenarios.js';

function scenario(id: string, parts: ScenarioParts = {}): Scenario {
  const yaml = scenarioYaml({
    id,
    subject: { command: 'node', args: ['server.js'] },
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['after-response'],
    modes: ['crash'],
    ...parts,
  });
  return parseScenario(yaml, `/p/scenarios/${id}.yaml`);
}

/** A real behaviour read from a source, and one that differs from it as `change` says, under two refs. */
const BASE = behaviourOf('vscode');
const ONE: ProfileRef = 'ts-sdk';
const OTHER: ProfileRef = 'zed';

/** The drills of `s` at `point` in `mode` under ONE (plain) and OTHER (changed): how many the plan runs. */
function drillsRun(change: (b: ClientBehaviour) => ClientBehaviour, mode: KillMode, s = scenario('a'), point: KillPoint = 'after-response'): number {
  const behaviours: Record<string, ClientBehaviour> = { [ONE]: BASE, [OTHER]: change(BASE) };
  const drill = (profile: ProfileRef, index: number): PlannedDrill => ({
    index,
    key: `${s.id}/${point}/${mode}${profile === ONE ? '' : `@${profile}`}`,
    scenario: s,
    point,
    mode,
    profile,
  });
  const { drills, notRepeated } = withoutRepeats([drill(ONE, 0), drill(OTHER, 1)], (ref) => behaviours[ref]!);
  if (drills.length === 1) expect(notRepeated).toEqual([{ key: `${s.id}/${point}/${mode}@${OTHER}`, sameAs: `${s.id}/${point}/${mode}` }]);
  return drills.length;
}

const spawn = (b: ClientBehaviour, over: Partial<ClientBehaviour['spawn']>): ClientBehaviour => ({ ...b, spawn: { ...b.spawn, ...over } });
const otherStop: (b: ClientBehaviour) => ClientBehaviour = (b) => ({ ...b, stop: [{ kind: 'signal', name: 'SIGKILL', to: 'group', onlyIfAlive: null }] });
const otherCrash: (b: ClientBehaviour) => ClientBehaviour = (b) => ({ ...b, crash: { signal: 'SIGTERM', to: 'child' } });
/** What no drill reads: the names, the range, whether observed, the sources, how a client abandons. */
const words: (b: ClientBehaviour) => ClientBehaviour = (b) => ({
  ...b,
  name: 'cursor',
  client: 'another client',
  versions: { label: 'other', first: '1', last: '2', since: 'abc' },
  observed: !b.observed,
  sources: { ...b.sources, crash: { unsourced: 'nothing read' } },
  abandons: 'a reload',
});

const LOSS_MODES: KillMode[] = ['crash', 'close', 'stop', 'abandon', 'hang'];

describe('one drill under profiles that give it the same inputs', () => {
  it('the names, range, sources and abandon text of a profile count in no mode', () => {
    for (const mode of LOSS_MODES) expect(drillsRun(words, mode), mode).toBe(1);
    expect(drillsRun(words, 'cancel', scenario('a', { points: ['in-flight'], modes: ['cancel'] }), 'in-flight')).toBe(1);
  });

  it('the stop steps count only where the client stops the server: not in crash, abandon or hang', () => {
    for (const mode of ['crash', 'abandon', 'hang'] as const) expect(drillsRun(otherStop, mode), mode).toBe(1);
    for (const mode of ['close', 'stop'] as const) expect(drillsRun(otherStop, mode), mode).toBe(2);
  });

  it('the crash counts only in crash', () => {
    expect(drillsRun(otherCrash, 'crash')).toBe(2);
    for (const mode of ['close', 'stop', 'abandon', 'hang'] as const) expect(drillsRun(otherCrash, mode), mode).toBe(1);
  });

  it('every spawn fact and the runtime stdin close count in every mode', () => {
    const changes: Array<[string, (b: ClientBehaviour) => ClientBehaviour]> = [
      ['group', (b) => spawn(b, { group: 'own-session' })],
      ['env', (b) => spawn(b, { env: { kind: 'allowlist', names: ['HOME', 'PATH'] } })],
      ['parent-death signal', (b) => spawn(b, { parentDeathSignal: 'SIGTERM' })],
      ['stderr', (b) => spawn(b, { stderr: 'pipe-unread' })],
      ['stdio', (b) => spawn(b, { stdio: b.spawn.stdio === 'pipe' ? 'socketpair' : 'pipe' })],
      ['closesStdinWhenChildExits', (b) => ({ ...b, closesStdinWhenChildExits: !b.closesStdinWhenChildExits })],
    ];
    for (const [what, change] of changes) for (const mode of LOSS_MODES) expect(drillsRun(change, mode), `${what} in ${mode}`).toBe(2);
  });

  it('a fact no code knows yet counts until it is shown not to', () => {
    const added = (b: ClientBehaviour) => ({ ...b, readsSomethingNew: true }) as ClientBehaviour;
    for (const mode of LOSS_MODES) expect(drillsRun(added, mode), mode).toBe(2);
  });

  it('the recovery retry stops its server the client way: the stop steps count in crash then, not in hang', () => {
    const retried = scenario('a', { remote: {}, modes: ['crash', 'hang'] });
    expect(retried.retry).toBe(true);
    expect(drillsRun(otherStop, 'crash', retried)).toBe(2);
    expect(drillsRun(otherStop, 'hang', retried)).toBe(1);
  });

  it("a cancel drill reads the facts of its cancel.then mode, and none of the loss's without one", () => {
    const cancel = (then: string | null) =>
      scenario('a', { points: ['in-flight'], modes: ['cancel'], ...(then ? { cancel: { then, after: 100 } } : {}) } as ScenarioParts);
    expect(drillsRun(otherCrash, 'cancel', cancel(null), 'in-flight')).toBe(1);
    expect(drillsRun(otherStop, 'cancel', cancel(null), 'in-flight')).toBe(1);
    expect(drillsRun(otherCrash, 'cancel', cancel('crash'), 'in-flight')).toBe(2);
    expect(drillsRun(otherStop, 'cancel', cancel('crash'), 'in-flight')).toBe(1);
    expect(drillsRun(otherStop, 'cancel', cancel('close'), 'in-flight')).toBe(2);
  });

  it('where the target is never sent the same holds, beside the scenarios that merge there', () => {
    expect(drillsRun(otherStop, 'crash', scenario('a'), 'idle')).toBe(1);
    expect(drillsRun(otherCrash, 'crash', scenario('a'), 'idle')).toBe(2);
  });

  it('the drills of one scenario under one profile stay apart: only the profile merges', () => {
    const plan = planRun([scenario('a', { modes: ['crash', 'stop'] }), scenario('b', { modes: ['crash', 'stop'], target: { call: 'write' } })], {
      clientProfiles: ['vscode', 'cursor'],
    });
    expect(plan.drills.map((d) => d.key)).toEqual([
      'a/after-response/crash@vscode',
      'a/after-response/stop@vscode',
      'a/after-response/stop@cursor',
      'b/after-response/crash@vscode',
      'b/after-response/stop@vscode',
      'b/after-response/stop@cursor',
    ]);
    expect(plan.notRepeated).toEqual([
      { key: 'a/after-response/crash@cursor', sameAs: 'a/after-response/crash@vscode' },
      { key: 'b/after-response/crash@cursor', sameAs: 'b/after-response/crash@vscode' },
    ]);
  });
});

describe('the real profiles', () => {
  it('crash: the ten sets of facts of the seventeen profiles; stop: every range its own', () => {
    const all = planRun([scenario('a', { modes: ['crash', 'stop'] })], { clientProfiles: [...PROFILE_NAMES] });
    const ran = (mode: string) => all.drills.filter((d) => d.mode === mode).map((d) => d.profile);
    expect(ran('crash')).toEqual(['ts-sdk', 'python-sdk', 'codex', 'gemini-cli', 'vscode', 'zed', 'goose', 'cline', 'continue', 'amazon-q']);
    expect(ran('stop')).toEqual(PROFILE_NAMES);
    expect(all.notRepeated.map((n) => [n.key.slice('a/after-response/'.length), n.sameAs.slice('a/after-response/'.length)])).toEqual([
      ['crash@claude-code', 'crash@vscode'],
      ['crash@cline-cli', 'crash@vscode'],
      ['crash@roo-code', 'crash@cline'],
      ['crash@opencode', 'crash@vscode'],
      ['crash@claude-code-reconnect', 'crash@vscode'],
      ['crash@claude-desktop', 'crash@vscode'],
      ['crash@cursor', 'crash@vscode'],
    ]);
  });

  it('results.json describes a drill left out with its own scenario, profile, range and unsourced steps', () => {
    const plan = planRun([scenario('a'), scenario('b', { points: ['idle'] })], { clientProfiles: ['vscode', 'cursor'], points: ['idle'] });
    expect(notRepeatedEntries(plan.notRepeated, plan.filtered)).toEqual([
      {
        key: 'a/idle/crash@cursor',
        sameAs: 'a/idle/crash@vscode',
        scenario: 'a',
        clientProfile: 'cursor',
        clientVersions: 'observed',
        unsourcedSteps: CURSOR_CRASH,
      },
      { key: 'b/idle/crash@vscode', sameAs: 'a/idle/crash@vscode', scenario: 'b', clientProfile: 'vscode', clientVersions: '0baa8cd7' },
      {
        key: 'b/idle/crash@cursor',
        sameAs: 'a/idle/crash@vscode',
        scenario: 'b',
        clientProfile: 'cursor',
        clientVersions: 'observed',
        unsourcedSteps: CURSOR_CRASH,
      },
    ]);
  });
});

const CURSOR_CRASH = [
  { step: 'spawn', rests: 'no report shows how Cursor spawns a server' },
  { step: 'env', rests: 'no report shows what a server receives' },
  { step: 'crash', rests: 'no report of what a server sees when Cursor dies; EOF is what any dead client leaves' },
];
