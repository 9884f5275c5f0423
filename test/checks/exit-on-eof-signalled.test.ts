/**
 * What a server writes on stderr after a signal reached it is its answer to the signal, not to
 * EOF. A fresh-clone CI run drilled ignores-sigterm under `close`: the TypeScript SDK's stop
 * sequence closes stdin, waits 2000 ms and sends SIGTERM, and the exit-on-eof deadline is 2000 ms
 * too. Its SIGTERM handler's log line came in a few ms before the deadline, and the diagnosis
 * said the server "reacted to EOF ... but was still shutting down". Pure: evidence in.
 */
import { describe, expect, it } from 'vitest';
import type { ProcessFacts, RuntimeFacts } from '../../harness/evidence/types.js';
import { judge } from '../../harness/results/judge.js';
import { EvidenceBuilder, SERVER } from './evidence-builder.js';

const RUNTIME: RuntimeFacts = {
  runtime: 'node',
  version: 'v20.19.0',
  exe: '/usr/bin/node',
  sdks: [{ name: '@modelcontextprotocol/sdk', version: '1.32.2', file: '/srv/node_modules/@modelcontextprotocol/sdk/package.json' }],
  reason: null,
};

/** At the deadline: an event loop watching a timer's fds, stdin a pipe it no longer polls (it read EOF). */
const AT_DEADLINE: ProcessFacts = {
  ...SERVER,
  ppid: 1,
  role: 'server',
  state: 'S',
  exe: '/usr/bin/node',
  threadCount: 7,
  threads: [{ tid: SERVER.pid, comm: 'node', state: 'S', wchan: 'do_epoll_wait' }],
  stdin: { kind: 'pipe', polled: false, readingThreads: 0 },
  eventLoop: true,
  polledOther: 4,
  timerfds: 0,
  fdKinds: { pipe: 3 },
  children: [],
};

/** A TypeScript SDK 1.x server at the idle point, deadline 2000 ms, up to the point (1200). */
function atIdle(mode: 'close' | 'crash'): EvidenceBuilder {
  return new EvidenceBuilder({ scenario: 'ignores-sigterm', point: 'idle', mode, expect: { exitOnEof: { deadline: 2000 } } })
    .start(1000)
    .spawned(1010)
    .handshake(1100)
    .add(1110, { type: 'diagnosis-facts', label: 'start', processes: [], runtime: RUNTIME })
    .pointReached(1200);
}

/** Lost at 1200 by `close` (stdin closed): SIGTERM from the stop sequence at `sigtermAt`, a log line at `loggedAt`, SIGKILL at 5200. */
function closed(sigtermAt: number, loggedAt: number) {
  const ev = atIdle('close')
    .clientLost(1200, 'close', 'stdin closed by the client')
    .stopStep(1200, 'close-stdin')
    .stopStep(sigtermAt, 'SIGTERM')
    .add(loggedAt, { type: 'subject-stderr', text: 'SIGTERM received, ignoring it\n' })
    .add(3200, { type: 'diagnosis-facts', label: 'deadline', processes: [AT_DEADLINE] })
    .stopStep(5195, 'SIGKILL')
    .serverExit(5200, { code: null, signal: 'SIGKILL', observedBy: 'client' })
    .snapshot(5700, [])
    .end(5800)
    .build();
  const diagnosis = judge(ev).incident.diagnosis ?? [];
  return diagnosis.find((d) => d.check === 'exit-on-eof');
}

describe('exit-on-eof diagnosis: stderr after a signal', () => {
  it('does not count a line written after the stop sequence SIGTERM, though before the deadline', () => {
    const d = closed(3190, 3195);
    expect(d?.cause).toBe(
      "the server read EOF but nothing acted on it (no exit, nothing on stderr): its stdin is still open, and its event loop stays alive on a live handle (a timer, an interval, a socket or a child: 4 other watched fds, 0 children); it ended 4000 ms after the loss by SIGKILL from the client's shutdown",
    );
    expect(d?.observed.some((line) => line.includes('it wrote on stderr'))).toBe(false);
    expect(d?.fix).toMatch(/; and let SIGTERM end it \(its handler must exit, not only log\): only SIGKILL did$/);
  });

  it('counts a line written after the loss and before any signal as its reaction to EOF', () => {
    const d = closed(3190, 3185);
    expect(d?.cause).toBe(
      "the server reacted to EOF (it wrote on stderr after the loss) but was still shutting down at the 2000 ms deadline, its event loop alive; it ended 4000 ms after the loss by SIGKILL from the client's shutdown",
    );
    expect(d?.observed).toContain('between the loss and the deadline it wrote on stderr: "SIGTERM received, ignoring it"');
  });

  it('ends the window at a harness SIGTERM as well', () => {
    const ev = atIdle('crash')
      .clientLost(1200)
      .signal(3000)
      .add(3010, { type: 'subject-stderr', text: 'SIGTERM received, ignoring it\n' })
      .add(3200, { type: 'diagnosis-facts', label: 'deadline', processes: [AT_DEADLINE] })
      .signal(5000, { signal: 'SIGKILL' })
      .serverExit(5005, { code: null, signal: 'SIGKILL' })
      .snapshot(5700, [])
      .end(5800)
      .build();
    const d = (judge(ev).incident.diagnosis ?? []).find((x) => x.check === 'exit-on-eof');
    expect(d?.cause).toMatch(
      /^the server read EOF but nothing acted on it \(no exit, nothing on stderr\).*; it ended 3805 ms after the loss by SIGKILL from the harness$/,
    );
  });
});
