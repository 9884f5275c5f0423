/**
 * A survey cell per client profile (harness/survey/cells.ts) reads a drill not repeated from the
 * drill that ran in its place, marked as such; without it the profile has no drill to judge.
 */
import { describe, expect, it } from 'vitest';
import { cellOf, drillsByProfile } from '../../harness/survey/cells.js';
import type { DrillResult } from '../../harness/results/types.js';
import { judge } from '../../harness/results/judge.js';
import { EvidenceBuilder, survivor } from '../checks/evidence-builder.js';
import { failed, runResults } from '../reports/fixtures.js';

describe('survey cells of a drill not repeated', () => {
  const ran: DrillResult = { ...failed(), key: 'srv/in-flight/close@vscode', clientProfile: 'vscode' };
  const entry = { key: 'srv/in-flight/close@cursor', sameAs: 'srv/in-flight/close@vscode', scenario: ran.scenario, clientProfile: 'cursor' as const };

  it("gives the profile left out the verdict of the drill that ran, its label marked, its link that drill's", () => {
    const byProfile = drillsByProfile(runResults([ran], { notRepeated: [entry] }), ['vscode', 'cursor']);
    const [vscode, cursor] = [cellOf(byProfile.get('vscode')!, '/s', '/s/run'), cellOf(byProfile.get('cursor')!, '/s', '/s/run')];
    expect(vscode).toMatchObject({
      kind: 'stdout-not-clean',
      text: 'stdout not clean',
      short: 'stdout not clean',
      shownBy: [`${ran.scenario} in-flight/close`],
    });
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
    expect(cellOf(byProfile.get('cursor')!, '/s', '/s/run')).toMatchObject({
      kind: 'not-judged',
      text: 'not judged: no drill under this client',
      short: 'not judged',
    });
  });
});

/** A close drill whose server was still up at the 2000 ms exit deadline, then ended as `end` says; `left` alive at the snapshot. */
function upAtDeadline(n: number, end: { exit?: { code: number }; signal?: 'harness'; handled?: boolean }, left: string[][] = []) {
  const b = new EvidenceBuilder({ drillId: `cells-${n}`, point: 'idle', mode: 'close' })
    .start(1000)
    .spawned(1010)
    .handshake(1100)
    .pointReached(1200)
    .clientLost(1200, 'close', 'stdin closed')
    .stopStep(1200, 'close-stdin');
  if (end.signal) b.signal(3300, { by: 'harness' }).serverExit(3310, end.handled ? { code: 0 } : { code: null, signal: 'SIGTERM' });
  else b.serverExit(3900, { code: end.exit!.code });
  return judge(
    b
      .snapshot(
        5300,
        left.map((cmdline, i) => survivor({ pid: 6000 + i, cmdline })),
      )
      .end(5400)
      .build(),
  );
}

describe('survey cells of a server up at the exit deadline', () => {
  it('one that then exits by itself exits late; one ended by a signal does not exit on EOF', () => {
    const late = cellOf([upAtDeadline(1, { exit: { code: 0 } })], '/s', '/s/run');
    expect(late).toMatchObject({ kind: 'exits-late', text: 'exits on EOF only after the exit deadline (exit 0)', short: 'exits late' });
    // Exit 0 in its SIGTERM handler is still an end by the harness's signal.
    const handled = cellOf([upAtDeadline(7, { signal: 'harness', handled: true })], '/s', '/s/run');
    expect(handled).toMatchObject({ kind: 'no-exit-on-eof', text: 'does not exit on EOF (up at the exit deadline; exited after SIGTERM from the harness)' });
    const held = cellOf([upAtDeadline(2, { signal: 'harness' })], '/s', '/s/run');
    expect(held).toMatchObject({
      kind: 'no-exit-on-eof',
      text: 'does not exit on EOF (up at the exit deadline; ended by SIGTERM from harness)',
      short: 'no exit on EOF',
    });
    // Both in one column: the drills that needed a signal say it; the late one adds nothing.
    const both = cellOf([upAtDeadline(8, { exit: { code: 0 } }), upAtDeadline(9, { signal: 'harness' })], '/s', '/s/run');
    expect(both).toMatchObject({ kind: 'no-exit-on-eof', text: held.text, short: 'no exit on EOF' });
  });

  it('counts and names only survivors alive at the loss; one the server started after it is in the evidence, not the cell', () => {
    const [young] = upAtDeadline(6, { signal: 'harness' }, [['sleep', '300']]).survivors;
    const drill = upAtDeadline(5, { signal: 'harness' }, [['sleep', '300']]);
    // The snapshot came 4100 ms after the loss: a process 80 ms old was started after it.
    drill.survivors = [
      { ...drill.survivors[0]!, elapsedMs: 4500 },
      { ...young!, pid: 6100, cmdline: ['sleep', '0.1'], elapsedMs: 80 },
    ];
    expect(cellOf([drill], '/s', '/s/run')).toMatchObject({ kind: 'leaves-processes', short: 'leaves 1 · no exit on EOF' });
    expect(cellOf([drill], '/s', '/s/run').text).toMatch(/^leaves 1 process \(sleep 300\);/);
  });

  it("counts and names one drill's survivors, the drill that left the most, each name once with its count", () => {
    const drills = [
      upAtDeadline(3, { signal: 'harness' }, [['sleep', '300']]),
      upAtDeadline(4, { signal: 'harness' }, [['sleep', '300'], ['sleep', '300'], ['/usr/bin/bash', '-l', '-c', 'x'], ['npm exec pkg@1.0.0  ']]),
    ];
    expect(cellOf(drills, '/s', '/s/run')).toMatchObject({
      kind: 'leaves-processes',
      text: 'leaves 4 processes (bash -l -c, npm exec pkg@1.0.0, sleep 300 ×2); does not exit on EOF (up at the exit deadline; ended by SIGTERM from harness)',
      short: 'leaves 4 · no exit on EOF',
    });
  });
});
