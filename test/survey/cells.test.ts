/**
 * A survey cell per client profile (harness/survey/cells.ts) reads a drill not repeated from the
 * drill that ran in its place, marked as such; without it the profile has no drill to judge.
 */
import { describe, expect, it } from 'vitest';
import { cellOf, drillsByProfile } from '../../harness/survey/cells.js';
import type { DrillResult } from '../../harness/results/types.js';
import { failed, runResults } from '../reports/fixtures.js';

describe('survey cells of a drill not repeated', () => {
  const ran: DrillResult = { ...failed(), key: 'srv/in-flight/close@vscode', clientProfile: 'vscode' };
  const entry = { key: 'srv/in-flight/close@cursor', sameAs: 'srv/in-flight/close@vscode', scenario: ran.scenario, clientProfile: 'cursor' as const };

  it("gives the profile left out the verdict of the drill that ran, its label marked, its link that drill's", () => {
    const byProfile = drillsByProfile(runResults([ran], { notRepeated: [entry] }), ['vscode', 'cursor']);
    const [vscode, cursor] = [cellOf(byProfile.get('vscode')!, '/s', '/s/run'), cellOf(byProfile.get('cursor')!, '/s', '/s/run')];
    expect(vscode).toMatchObject({ kind: 'stdout-not-clean', text: 'stdout not clean', shownBy: [`${ran.scenario} in-flight/close`] });
    expect(cursor).toMatchObject({
      kind: 'stdout-not-clean',
      text: 'stdout not clean',
      shownBy: [`${ran.scenario} in-flight/close (not repeated: the same drill as srv/in-flight/close@vscode)`],
      drill: ran.id,
      evidence: vscode.evidence,
    });
  });

  it('without the entry the profile has no drill', () => {
    const byProfile = drillsByProfile(runResults([ran]), ['vscode', 'cursor']);
    expect(cellOf(byProfile.get('cursor')!, '/s', '/s/run')).toMatchObject({ kind: 'not-judged', text: 'not judged: no drill under this client' });
  });
});
