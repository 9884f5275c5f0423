import { describe, expect, it } from 'vitest';
import { exitInfo } from '../../harness/results/exit-info.js';
import { EvidenceBuilder, SERVER } from '../checks/evidence-builder.js';

/** The real message Node prints for an unhandled EPIPE on stdout (the SDK has no 'error' handler). */
const NODE_EPIPE = [
  'node:events:497',
  "      throw er; // Unhandled 'error' event",
  '      ^',
  '',
  'Error: write EPIPE',
  '    at afterWriteDispatched (node:internal/stream_base_commons:161:15)',
  '',
].join('\n');

function lost(mode: 'crash' | 'close' = 'crash'): EvidenceBuilder {
  return new EvidenceBuilder({ mode }).start(1000).spawned(1010).clientLost(1200);
}

describe('exitInfo', () => {
  it('is null when the server never spawned', () => {
    expect(exitInfo(new EvidenceBuilder().start(1000).harnessError(1100, 'spawn', 'ENOENT').build())).toBeNull();
  });

  it('classes a code 0 exit as clean, with the time after the loss', () => {
    const ev = lost().stderr(1020, 'ready\n').serverExit(1250, { code: 0 }).build();
    expect(exitInfo(ev)).toEqual({
      pid: SERVER.pid,
      code: 0,
      signal: null,
      class: 'clean',
      signalFrom: null,
      endedAfter: null,
      afterLossMs: 50,
      crash: null,
      stderrTail: 'ready\n',
      launcher: null,
      statusFrom: 'server',
    });
  });

  it('classes a non-zero code without a stack trace as exit-code', () => {
    const info = exitInfo(lost().stderr(1020, 'bye: stdin closed\n').serverExit(1250, { code: 3 }).build());
    expect(info?.class).toBe('exit-code');
    expect(info?.code).toBe(3);
    expect(info?.crash).toBeNull();
  });

  it('classes a non-zero code with an EPIPE in stderr as a crash and keeps the line', () => {
    const info = exitInfo(lost().stderr(1230, 'Error: write EPIPE\n    at afterWriteDispatched\n').serverExit(1250, { code: 1 }).build());
    expect(info?.class).toBe('crash');
    expect(info?.crash).toBe('Error: write EPIPE');
  });

  it("takes the most telling line of Node's real unhandled-EPIPE output: the EPIPE, not the generic 'Unhandled' line", () => {
    const info = exitInfo(lost().stderr(1230, NODE_EPIPE).serverExit(1250, { code: 1 }).build());
    expect(info?.class).toBe('crash');
    expect(info?.crash).toBe('Error: write EPIPE');
  });

  it('classes a Rust panic as a crash, with or without the thread id rustc 1.95 prints (println! on a broken stdout)', () => {
    const rust195 =
      "\nthread 'main' (14591) panicked at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/io/stdio.rs:1165:9:\nfailed printing to stdout: Broken pipe (os error 32)\n";
    const info = exitInfo(lost().stderr(1230, rust195).serverExit(1250, { code: 101 }).build());
    expect(info?.class).toBe('crash');
    expect(info?.crash).toBe("thread 'main' (14591) panicked at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/io/stdio.rs:1165:9:");
    const older = exitInfo(lost().stderr(1230, "thread 'main' panicked at src/main.rs:3:5:\n").serverExit(1250, { code: 101 }).build());
    expect(older?.crash).toBe("thread 'main' panicked at src/main.rs:3:5:");
  });

  it('does not call a code 0 exit a crash even with an EPIPE in stderr', () => {
    const info = exitInfo(lost().stderr(1230, 'Error: write EPIPE\n').serverExit(1250, { code: 0 }).build());
    expect(info?.class).toBe('clean');
    expect(info?.crash).toBeNull();
  });

  it('classes a signal sent by the harness', () => {
    const info = exitInfo(lost().signal(2300, { signal: 'SIGTERM' }).serverExit(2310, { code: null, signal: 'SIGTERM' }).build());
    expect(info).toMatchObject({
      class: 'signal',
      signal: 'SIGTERM',
      code: null,
      signalFrom: 'harness',
      endedAfter: 'SIGTERM from the harness',
      afterLossMs: 1110,
      crash: null,
    });
  });

  it('does not credit the harness with a signal it did not deliver (zombie, gone, mismatch), like exit-on-eof', () => {
    for (const result of ['zombie', 'gone', 'mismatch']) {
      const ev = lost().signal(2300, { signal: 'SIGTERM', result }).serverExit(2310, { code: null, signal: 'SIGTERM' }).build();
      expect(exitInfo(ev)?.signalFrom).toBe('not the harness or the client');
    }
  });

  it("classes a signal from the client's shutdown", () => {
    const ev = lost('close').stopStep(1200, 'close-stdin').stopStep(3200, 'SIGTERM').serverExit(3205, { code: null, signal: 'SIGTERM' }).build();
    expect(exitInfo(ev)).toMatchObject({
      class: 'signal',
      signal: 'SIGTERM',
      signalFrom: 'client',
      endedAfter: "SIGTERM from the client's shutdown",
      afterLossMs: 2005,
    });
  });

  it('records endedAfter when the server handled a signal and then exited with a code', () => {
    const ev = lost().signal(2300, { signal: 'SIGTERM' }).serverExit(2320, { code: 0 }).build();
    expect(exitInfo(ev)).toMatchObject({ class: 'clean', code: 0, signal: null, signalFrom: null, endedAfter: 'SIGTERM from the harness' });
    const undelivered = lost().signal(2300, { signal: 'SIGTERM', result: 'gone' }).serverExit(2320, { code: 0 }).build();
    expect(exitInfo(undelivered)?.endedAfter).toBeNull();
  });

  it('says the signal came from neither when no one in the evidence sent it', () => {
    const ev = lost()
      .signal(1300, { signal: 'SIGTERM', pid: 5001, startTime: 990_000 }) // another process
      .stopStep(1300, 'SIGTERM') // a SIGTERM step, but the server died of SIGKILL
      .serverExit(1400, { code: null, signal: 'SIGKILL' })
      .build();
    expect(exitInfo(ev)).toMatchObject({ class: 'signal', signal: 'SIGKILL', signalFrom: 'not the harness or the client' });
  });

  it('reports did-not-exit with the spawned pid when there is no server-exit', () => {
    const ev = lost().stderr(1100, 'tick\n').end(4000).build();
    expect(exitInfo(ev)).toEqual({
      pid: SERVER.pid,
      code: null,
      signal: null,
      class: 'did-not-exit',
      signalFrom: null,
      endedAfter: null,
      afterLossMs: null,
      crash: null,
      stderrTail: 'tick\n',
      launcher: null,
      statusFrom: null,
    });
  });

  it('falls back to the status the client reaped when the observer saw none', () => {
    const ev = lost().subjectExit(1249, 2).serverExit(1250, { code: null, signal: null, observedBy: 'observer' }).build();
    expect(exitInfo(ev)).toMatchObject({ class: 'exit-code', code: 2, signal: null });
  });

  it('classes an exit with no status at all as unknown', () => {
    const ev = lost().serverExit(1250, { code: null, signal: null }).build();
    expect(exitInfo(ev)).toMatchObject({ class: 'unknown', code: null, signal: null, signalFrom: null, statusFrom: null });
  });

  describe('behind a launcher (npx: npm exec -> sh -c -> node) whose parent reaped the server unseen', () => {
    const REAL = { pid: 4300, startTime: 987_700 };
    /** The client's child is the launcher (SERVER's identity here); REAL is the server below it, gone without a status. */
    function behind(launcherExit: { t: number; code: number | null; signal?: string | null } | null): ReturnType<typeof exitInfo> {
      const b = lost()
        .add(1015, { type: 'real-server', ...REAL, cmdline: ['node', 'server.js'], wrapper: SERVER })
        .serverExit(1250, { ...REAL, code: null, signal: null });
      if (launcherExit) b.add(launcherExit.t, { type: 'launcher-exit', ...SERVER, code: launcherExit.code, signal: launcherExit.signal ?? null });
      return exitInfo(b.build());
    }

    it("reads the server's class from the launcher's code, which mirrors it, and says so", () => {
      expect(behind({ t: 1252, code: 0 })).toMatchObject({ pid: REAL.pid, class: 'clean', code: 0, signal: null, statusFrom: 'launcher' });
      expect(behind({ t: 1252, code: 3 })).toMatchObject({ pid: REAL.pid, class: 'exit-code', code: 3, signal: null, statusFrom: 'launcher' });
    });

    it('reads a code of 128 + N as signal N (sh -c and npm exec report a signalled child so)', () => {
      expect(behind({ t: 1252, code: 143 })).toMatchObject({ pid: REAL.pid, class: 'signal', code: null, signal: 'SIGTERM', statusFrom: 'launcher' });
    });

    it('stays unknown where the launcher says nothing of the server: killed by a signal, exited before it, no status, or not seen', () => {
      const unknown = { pid: REAL.pid, class: 'unknown', code: null, signal: null, statusFrom: null };
      expect(behind({ t: 1252, code: null, signal: 'SIGTERM' })).toMatchObject(unknown);
      expect(behind({ t: 1240, code: 0 })).toMatchObject(unknown);
      expect(behind({ t: 1252, code: null })).toMatchObject(unknown);
      expect(behind(null)).toMatchObject(unknown);
    });

    it("keeps the server's own status when the watch caught its zombie", () => {
      const ev = lost()
        .add(1015, { type: 'real-server', ...REAL, cmdline: ['node', 'server.js'], wrapper: SERVER })
        .serverExit(1250, { ...REAL, code: 2 })
        .add(1252, { type: 'launcher-exit', ...SERVER, code: 0, signal: null })
        .build();
      expect(exitInfo(ev)).toMatchObject({ pid: REAL.pid, class: 'exit-code', code: 2, statusFrom: 'server' });
    });
  });

  it('gives a negative afterLossMs when the server exited first, and null without a loss', () => {
    const before = new EvidenceBuilder().start(1000).spawned(1010).serverExit(1100, { code: 1 }).clientLost(1200).build();
    expect(exitInfo(before)?.afterLossMs).toBe(-100);
    const noLoss = new EvidenceBuilder().start(1000).spawned(1010).serverExit(1100, { code: 1 }).build();
    expect(exitInfo(noLoss)?.afterLossMs).toBeNull();
  });

  it('keeps only the last 2000 characters of stderr, across chunks', () => {
    const chunks = ['a'.repeat(1500), 'b'.repeat(1000), 'c'.repeat(600)];
    let b = lost();
    for (const [i, text] of chunks.entries()) b = b.stderr(1020 + i, text);
    const info = exitInfo(b.serverExit(1250).build());
    expect(info?.stderrTail).toHaveLength(2000);
    expect(info?.stderrTail).toBe('a'.repeat(400) + 'b'.repeat(1000) + 'c'.repeat(600));
  });
});
