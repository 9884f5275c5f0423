/** The detector every matrix runs (diagnosis-agrees.ts) finds each kind of contradiction, and none in a diagnosis that agrees. */
import { describe, expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { diagnosisContradictions } from './diagnosis-agrees.js';

const row = (pid: number, ppid: number) => ({ pid, ppid }) as DrillResult['survivors'][number];

function drill(over: {
  mode?: DrillResult['mode'];
  profile?: DrillResult['clientProfile'];
  survivors: DrillResult['survivors'];
  sentences: string[];
  realServer?: number;
}) {
  return {
    key: 'k',
    ...(over.realServer ? { exit: { pid: over.realServer } as DrillResult['exit'] } : {}),
    mode: over.mode ?? 'crash',
    clientProfile: over.profile ?? 'ts-sdk',
    survivors: over.survivors,
    incident: {
      server: { pid: 10, command: 'node s.js', ppid: 1, pgid: 10 },
      diagnosis: [{ check: 'exit-on-eof', cause: over.sentences[0]!, observed: over.sentences.slice(1), fix: 'f' }],
    } as unknown as DrillResult['incident'],
  };
}

describe('diagnosisContradictions', () => {
  it('finds "0 children" beside a live child, "had exited" of a survivor, and EOF where none was sent', () => {
    expect(
      diagnosisContradictions(drill({ survivors: [row(10, 1), row(11, 10)], sentences: ['its event loop stays alive (2 other watched fds, 0 children)'] })),
    ).toEqual(['k exit-on-eof: "its event loop stays alive (2 other watched fds, 0 children)": the snapshot lists 1 live child(ren) of the server: 11']);
    expect(diagnosisContradictions(drill({ survivors: [row(10, 1), row(11, 10)], sentences: ['c', 'the server (pid 10) had exited'] }))).toHaveLength(1);
    expect(
      diagnosisContradictions(
        drill({ mode: 'abandon', survivors: [row(10, 1)], sentences: ['c', 'stdin open: the server read its input to the end (EOF reached it)'] }),
      ),
    ).toEqual(['k exit-on-eof: "stdin open: the server read its input to the end (EOF reached it)": no EOF was sent (abandon under ts-sdk)']);
    expect(
      diagnosisContradictions(
        drill({ mode: 'stop', profile: 'gemini-cli', survivors: [row(10, 1)], sentences: ['the server read EOF but nothing acted on it'] }),
      ),
    ).toHaveLength(1);
  });

  it("behind a launcher, speaks of the real server: its children, not the launcher's (npx 10 -> node 11)", () => {
    const zero = ['its event loop stays alive (2 other watched fds, 0 children)'];
    expect(diagnosisContradictions(drill({ survivors: [row(10, 1), row(11, 10)], sentences: zero, realServer: 11 }))).toEqual([]);
    expect(diagnosisContradictions(drill({ survivors: [row(10, 1), row(11, 10), row(12, 11)], sentences: zero, realServer: 11 }))).toEqual([
      'k exit-on-eof: "its event loop stays alive (2 other watched fds, 0 children)": the snapshot lists 1 live child(ren) of the server: 12',
    ]);
  });

  it('finds nothing in a diagnosis that agrees with its evidence', () => {
    expect(diagnosisContradictions(drill({ survivors: [row(11, 1)], sentences: ['1 process outlived it', 'the server (pid 10) had exited'] }))).toEqual([]);
    expect(
      diagnosisContradictions(drill({ survivors: [row(10, 1), row(11, 10)], sentences: ['its event loop stays alive (0 other watched fds, 1 child)'] })),
    ).toEqual([]);
    expect(
      diagnosisContradictions(drill({ mode: 'stop', profile: 'ts-sdk', survivors: [row(10, 1)], sentences: ['the server read EOF but nothing acted on it'] })),
    ).toEqual([]);
  });
});
