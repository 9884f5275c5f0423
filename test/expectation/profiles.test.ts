/**
 * The client axis of a cleanup expectation (harness/expectation/judge.ts, baseline.ts): a
 * statement judged per profile once a run has more than one (or one other than the default),
 * not met when any profile does not meet it, and a baseline entry per profile.
 */
import { describe, expect, it } from 'vitest';
import type { ProfileRef } from '../../harness/client-profiles/profiles.js';
import { profilesText } from '../../harness/results/constants.js';
import { applyStatementBaseline, collectStatements } from '../../harness/expectation/baseline.js';
import { judgeExpectations } from '../../harness/expectation/judge.js';
import type { DrillResult, NotRepeatedDrill } from '../../harness/results/types.js';

const SERVER = { name: 'srv', command: 'node', args: ['srv.js'] };

function drill(profile: ProfileRef, helperLeft: boolean, versions?: string): DrillResult {
  return {
    key: `s/child-spawned/stop${profile === 'ts-sdk' ? '' : `@${profile}`}`,
    verdict: helperLeft ? 'fail' : 'pass',
    mode: 'stop',
    clientProfile: profile,
    ...(versions ? { clientVersions: versions } : {}),
    subject: SERVER,
    checks: [{ id: 'no-survivors', verdict: helperLeft ? 'fail' : 'pass', summary: '', data: {} }],
    survivors: helperLeft ? [{ pid: 11 }] : [],
    incident: { server: { pid: 10 } },
  } as unknown as DrillResult;
}

const judge = (drills: DrillResult[], notRepeated: NotRepeatedDrill[] = []) =>
  judgeExpectations([{ server: 'srv', command: 'node', args: ['srv.js'], statements: [{ id: 'leaves-no-helper' }] }], drills, notRepeated)!;

describe('a cleanup expectation with a client axis', () => {
  it('judges each profile on its own drills, and the statement on all of them', () => {
    const results = judge([drill('ts-sdk', true), drill('codex', false), drill('zed', false), drill('claude-code', true)]);
    const [st] = results.servers[0].statements;
    expect(st.status).toBe('not met');
    expect(st.profiles).toEqual([
      { profile: 'ts-sdk', status: 'not met', drills: ['s/child-spawned/stop'] },
      { profile: 'codex', status: 'met', drills: ['s/child-spawned/stop@codex'] },
      { profile: 'zed', status: 'met', drills: ['s/child-spawned/stop@zed'] },
      { profile: 'claude-code', status: 'not met', drills: ['s/child-spawned/stop@claude-code'] },
    ]);
  });

  it('a profile whose drill was not repeated is judged, under its own key and range, from the drill that ran in its place', () => {
    const cursor = { key: 's/child-spawned/stop@cursor', sameAs: 's/child-spawned/stop@codex', scenario: 's', clientProfile: 'cursor' as const };
    const results = judge([drill('ts-sdk', true), drill('codex', false)], [{ ...cursor, clientVersions: 'observed' }]);
    expect(results.servers[0].statements[0].profiles).toEqual([
      { profile: 'ts-sdk', status: 'not met', drills: ['s/child-spawned/stop'] },
      { profile: 'codex', status: 'met', drills: ['s/child-spawned/stop@codex'] },
      { profile: 'cursor', versions: 'observed', status: 'met', drills: ['s/child-spawned/stop@cursor'] },
    ]);
    // Its baseline entry is its own: a not met under the profile left out is listed under it.
    const failing = judge([drill('codex', true)], [cursor]);
    expect(collectStatements(failing).map((e) => e.profile)).toEqual(['codex', 'cursor']);
    // A drill left out under the same profile (another scenario at idle) adds nothing; one whose drill did not run, nothing.
    const same = { key: 't/child-spawned/stop@codex', sameAs: 's/child-spawned/stop@codex', scenario: 't', clientProfile: 'codex' as const };
    expect(judge([drill('codex', false)], [same]).servers[0].statements[0].profiles).toEqual([
      { profile: 'codex', status: 'met', drills: ['s/child-spawned/stop@codex'] },
    ]);
    expect(judge([drill('ts-sdk', false)], [cursor]).servers[0].statements[0].profiles).toBeUndefined();
  });

  it("each profile's line names the range drilled: Gemini CLI by version is two lines, not one", () => {
    const results = judge([drill('gemini-cli', true, '>=0.52'), drill('gemini-cli@0.27-0.51', false, '0.27-0.51')]);
    const [st] = results.servers[0].statements;
    expect(st.profiles).toEqual([
      { profile: 'gemini-cli', versions: '>=0.52', status: 'not met', drills: ['s/child-spawned/stop@gemini-cli'] },
      { profile: 'gemini-cli@0.27-0.51', versions: '0.27-0.51', status: 'met', drills: ['s/child-spawned/stop@gemini-cli@0.27-0.51'] },
    ]);
    expect(profilesText(st.profiles!)).toBe('met under gemini-cli@0.27-0.51; not met under gemini-cli@>=0.52');
  });

  it('a run of the default profile alone has no axis: its result reads as before', () => {
    expect(judge([drill('ts-sdk', false)]).servers[0].statements[0].profiles).toBeUndefined();
    expect(judge([drill('codex', false)]).servers[0].statements[0].profiles).toHaveLength(1);
  });

  it('a baseline lists a statement per profile: known only when every profile it is not met under is listed', () => {
    const results = judge([drill('ts-sdk', true), drill('codex', false), drill('claude-code', true)]);
    expect(collectStatements(results)).toEqual([
      { server: 'srv', statement: 'leaves-no-helper', profile: 'claude-code', reason: '' },
      { server: 'srv', statement: 'leaves-no-helper', profile: 'ts-sdk', reason: '' },
    ]);
    const one = applyStatementBaseline(results, [{ server: 'srv', statement: 'leaves-no-helper', profile: 'ts-sdk', reason: 'SDK 1.x' }]);
    expect(one.known).toBe(0);
    expect(results.notMet).toBe(1);
    const both = applyStatementBaseline(results, [
      { server: 'srv', statement: 'leaves-no-helper', profile: 'ts-sdk', reason: 'SDK 1.x' },
      { server: 'srv', statement: 'leaves-no-helper', profile: 'claude-code', reason: 'closed source' },
      // Met under codex now: stale.
      { server: 'srv', statement: 'leaves-no-helper', profile: 'codex', reason: 'old' },
    ]);
    expect(both.known).toBe(1);
    expect(results.notMet).toBe(0);
    expect(both.stale.map((e) => e.profile)).toEqual(['codex']);
  });
});
