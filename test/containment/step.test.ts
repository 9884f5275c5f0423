/**
 * The one containment step (harness/containment/step.ts): every kind is shown as one line, and a
 * verdict that depends on a step (the container exit-on-eof: a `docker stop` from the harness
 * before the exit) reads its fields, both from the evidence in memory and from a saved log that
 * `crash-drill check`'s checkPath verifies and re-judges.
 */
import { describe, expect, it } from 'vitest';
import { exitOnEof } from '../../harness/checks/exit-on-eof/check.js';
import { checkPath } from '../../harness/cli/check-command.js';
import type { ContainerRow } from '../../harness/containers/types.js';
import { writeEvidenceLog } from '../../harness/evidence/log.js';
import { describeStep, type ContainerTarget, type ContainmentStep, type StepBody } from '../../harness/containment/step.js';
import { EvidenceBuilder, SERVER } from '../checks/evidence-builder.js';
import { tempDir } from '../support/temp-dir.js';
import type { ContainerContainment } from '../../harness/containment/containers.js';

const P = { pid: 812, startTime: 990_000 };
const C: ContainerTarget = { engine: 'docker', id: 'c0ffee'.repeat(10).slice(0, 64), name: 'srv', created: '2026-01-01T00:00:00.1Z' };

describe('describeStep', () => {
  it('shows every kind as one line', () => {
    const cases: [StepBody, string][] = [
      [{ kind: 'signal', target: P, signal: 'SIGTERM', result: 'sent' }, 'SIGTERM: sent'],
      [{ kind: 'signal', target: P, signal: 'SIGCONT', result: 'sent', reason: 'stopped' }, 'SIGCONT (it was stopped): sent'],
      [{ kind: 'signal', target: P, signal: 'SIGKILL', result: 'zombie' }, 'SIGKILL: zombie'],
      [{ kind: 'cgroup.kill', target: P, result: 'unavailable' }, 'cgroup.kill: unavailable'],
      [{ kind: 'exited', target: P, how: 'zombie', code: null, signal: 'SIGKILL' }, 'exited (zombie, signal SIGKILL)'],
      [{ kind: 'exited', target: P, how: 'zombie', code: 3, signal: null }, 'exited (zombie, code 3)'],
      [{ kind: 'exited', target: P, how: 'gone', code: null, signal: null }, 'exited (gone)'],
      [{ kind: 'engine', target: C, command: 'stop', args: ['--time', '1'], result: 'sent' }, 'docker stop --time 1: sent'],
      [{ kind: 'engine', target: C, command: 'stop', result: 'done' }, 'docker stop: done'],
      [{ kind: 'engine', target: C, command: 'kill', args: [], result: 'sent' }, 'docker kill: sent'],
      [
        { kind: 'engine', target: C, command: 'kill', result: 'failed', reason: 'Error response from daemon' },
        'docker kill: failed: Error response from daemon',
      ],
      [{ kind: 'engine', target: C, command: 'rm', result: 'gone' }, 'docker rm: gone already'],
      [{ kind: 'inspect', target: C, result: 'gone' }, 'inspect: gone'],
      [{ kind: 'inspect', target: C, result: 'mismatch', created: 'X' }, `inspect: created X, not ${C.created}: left alone`],
      [{ kind: 'inspect', target: C, result: 'seen', state: 'exited', exitCode: 143 }, 'state exited, exit code 143'],
      [{ kind: 'inspect', target: C, result: 'removed' }, 'removed by the engine (--rm)'],
      [{ kind: 'snapshot', target: P, result: 'taken' }, 'snapshot of 812 (start 990000)'],
      [{ kind: 'revoke', target: P, what: 'revoke POST http://x/', result: 'ok', detail: 'status 204' }, 'revoke POST http://x/: ok (status 204)'],
      [{ kind: 'probe-overridden', target: P, result: 'forced' }, 'the probe was still allowed; going on because of --force'],
      [{ kind: 'signal', target: P, signal: 'SIGTERM', result: 'sent', proof: 'the process itself' }, 'SIGTERM 812 (the process itself): sent'],
      [{ kind: 'signal', target: P, signal: 'SIGCONT', result: 'gone', reason: 'stopped', proof: 'a descendant of 800' }, 'SIGCONT 812 (it was stopped): gone'],
      [{ kind: 'wait', target: P, waitMs: 300, result: 'waited', ended: 1, of: 2 }, 'waited up to 300 ms: 1 of 2 ended'],
      [{ kind: 're-identify', target: P, result: 'done', left: [] }, 're-identified: nothing of the run is left'],
      [{ kind: 're-identify', target: P, result: 'done', left: [812, 813] }, 're-identified: still there: 812, 813'],
      [{ kind: 'outcome', target: { pid: 812, startTime: null }, result: 'refused', reason: 'no live process 812' }, 'refused: no live process 812'],
    ];
    for (const [step, line] of cases) expect(describeStep({ t: 1, ...step })).toBe(line);
  });
});

const ROW: ContainerRow = {
  id: C.id,
  name: C.name,
  image: 'crash-drill-node:local',
  command: ['node', 'srv.js'],
  state: 'running',
  created: C.created,
  labels: {},
  pid: 5100,
  attributedBy: 'label',
  cli: { pid: SERVER.pid, startTime: SERVER.startTime, cmdline: ['docker', 'run', '-i', 'crash-drill-node:local'] },
};

/** The subject runs in a container that exits at `exitAt`; containment's steps are as given. */
function containerDrill(exitAt: number, steps: ContainmentStep[]) {
  const record = { id: C.id, name: C.name, image: ROW.image, created: C.created, endedBy: 'stop', forced: false, exitCode: 143, steps } as ContainerContainment;
  return new EvidenceBuilder()
    .start(1000)
    .spawned(1010)
    .add(1020, { type: 'container-engine', engine: 'docker', endpoint: [], reachable: true, version: '27.0', error: null })
    .add(1030, { type: 'container-server', cli: ROW.cli!, container: ROW })
    .clientLost(1200)
    .add(2300, { type: 'container-containment', records: [record] })
    .add(exitAt, { type: 'container-exit', id: C.id, code: 143, wall: '2026-01-01T00:00:01Z' })
    .end(3000)
    .build();
}

const TYPED: ContainmentStep[] = [
  { t: 2300, kind: 'engine', target: C, command: 'stop', args: ['--time', '1'], result: 'sent' },
  { t: 2320, kind: 'engine', target: C, command: 'stop', result: 'done' },
  { t: 2321, kind: 'inspect', target: C, result: 'seen', state: 'exited', exitCode: 143 },
  { t: 2340, kind: 'engine', target: C, command: 'rm', result: 'done' },
];
const STOPPED = `the server in container ${C.id.slice(0, 12)} (srv, crash-drill-node:local) did not exit on EOF: it was ended by docker stop --time 1 from the harness 1110 ms after losing its client (exit code 143)`;

describe('the container exit-on-eof verdict reads the step, not its text', () => {
  it("fails when the harness's docker stop came before the exit, passes when the container exited first", () => {
    const stopped = exitOnEof.run(containerDrill(2310, TYPED));
    expect([stopped.verdict, stopped.summary]).toEqual(['fail', STOPPED]);
    expect(stopped.data).toHaveProperty('endedBy', 'docker stop --time 1 from the harness');
    const onItsOwn = exitOnEof.run(containerDrill(1260, TYPED));
    expect([onItsOwn.verdict, onItsOwn.summary]).toEqual([
      'pass',
      `the server in container ${C.id.slice(0, 12)} (srv, crash-drill-node:local) exited 60 ms after losing its client (exit code 143)`,
    ]);
  });

  it('a saved log verifies and is re-judged from the file alone, the same way', () => {
    const dir = tempDir('containment-steps-');
    const evidence = containerDrill(2310, TYPED);
    evidence.meta.drillId = 'cd-20260101T000000-abcdef-typed';
    evidence.events[0] = { ...evidence.events[0], meta: evidence.meta } as (typeof evidence.events)[0];
    writeEvidenceLog(dir, evidence);
    const { results, broken } = checkPath(dir);
    expect(broken).toEqual([]);
    expect(results.drills.map((d) => [d.id.split('-').pop(), d.checks.find((c) => c.id === 'exit-on-eof')?.summary])).toEqual([['typed', STOPPED]]);
  });
});
