/**
 * A survivor's diagnosis says when it was started relative to the client's loss from its own
 * start time (process-new's `startedAt`), not from when the observer first saw it: under load a
 * child started before the loss is often seen after it (a fresh-clone run said "39 ms after the
 * client was lost" of a child the tool had started before its answer). Pure: evidence in.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../harness/results/judge.js';
import { EvidenceBuilder, SERVER, survivor } from '../checks/evidence-builder.js';

function leaked(startedAt: number | undefined) {
  const child = survivor({ pid: 5001, startTime: 990_000, ppid: 1, pgid: SERVER.pid, cmdline: ['sleep', '300'] });
  return new EvidenceBuilder({ point: 'after-response', mode: 'crash' })
    .start(1000)
    .spawned(1010)
    .handshake(1100)
    .pointReached(1200)
    .clientLost(1300)
    .add(
      1339,
      {
        type: 'process-new',
        pid: 5001,
        startTime: 990_000,
        ...(startedAt !== undefined ? { startedAt } : {}),
        ppid: SERVER.pid,
        cmdline: ['sleep', '300'],
        foundBy: ['marker'],
      },
      'observer',
    )
    .serverExit(1320, { code: 0 })
    .snapshot(3400, [child])
    .end(3500)
    .build();
}

describe('when a survivor was started, in its diagnosis', () => {
  it('comes from its start time: started 50 ms before the loss though first seen 39 ms after it', () => {
    const text = JSON.stringify(judge(leaked(1250)).incident.diagnosis);
    expect(text).toContain('pid 5001 was started by the server (pid 4242), 50 ms before the client was lost');
  });

  it('falls back to when it was first seen in evidence recorded without a start time', () => {
    const text = JSON.stringify(judge(leaked(undefined)).incident.diagnosis);
    expect(text).toContain('pid 5001 was started by the server (pid 4242), 39 ms after the client was lost');
  });
});
