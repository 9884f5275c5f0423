/**
 * Drills against the published reference servers (2026.8.31, pinned devDependencies), with
 * the verdicts checked by hand first (scenarios-real/README.md has the table and the method).
 * Every expectation below is what the server really did; where the harness and reality
 * disagree, the harness is wrong, never the expectation.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrills, type DrillResult, type RunResults } from '../../harness/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { assertDiagnosesAgree } from '../support/diagnosis-agrees.js';
import { markedProcesses } from '../support/markers.js';
import { until } from '../support/until.js';

let results: RunResults;

beforeAll(async () => {
  ({ results } = await runDrills({ scenarios: [join(packageRoot(), 'scenarios-real')], concurrency: 2 }));
  assertDiagnosesAgree(results.drills);
}, 170_000);

afterAll(async () => {
  // The harness contains what it finds; this proves nothing of the run is left behind.
  if (results) await until('no process of the run', () => markedProcesses(results.runId).length === 0);
});

function drill(scenario: string, point: string, mode: string): DrillResult {
  const found = results.drills.find((d) => d.scenario === scenario && d.point === point && d.mode === mode);
  if (!found) throw new Error(`no drill ${scenario} ${point}/${mode} in ${results.drills.map((d) => `${d.scenario} ${d.point}/${d.mode}`).join(', ')}`);
  return found;
}

function checks(d: DrillResult): Record<string, string> {
  return Object.fromEntries(d.checks.map((c) => [c.id, c.verdict]));
}

const CLEAN = { 'exit-on-eof': 'pass', 'no-survivors': 'pass', 'stdout-clean': 'pass' };

describe('real published servers', () => {
  it('ran every drill', () => {
    expect(results.drills).toHaveLength(26);
    expect(results.summary).toEqual({ pass: 18, fail: 8, unknown: 0, error: 0 });
  });

  it.each([
    ['idle', 'crash'],
    ['idle', 'close'],
    ['after-response', 'crash'],
    ['after-response', 'close'],
  ])('server-everything with no live handle, %s/%s: exits cleanly about 350 ms after EOF', (point, mode) => {
    // By hand: exits with code 0 330-370 ms after stdin closes. Not at once: after initialize
    // it arms a 350 ms setTimeout (syncRoots, server/index.js), the only thing keeping it up.
    const d = drill('everything-idle', point, mode);
    expect(d.verdict).toBe('pass');
    expect(checks(d)).toEqual(CLEAN);
    expect(d.exit?.class).toBe('clean');
  });

  it('server-everything with toggle-simulated-logging, idle/crash: never exits on EOF', () => {
    // By hand: the 5 s logging interval keeps the loop alive (no 'end' listener on stdin,
    // typescript-sdk #2002); its next log write hits the broken pipe and it dies of an
    // unhandled EPIPE about 5 s after the toggle. The harness contains it first (SIGTERM at
    // deadline + grace, ~4 s), so the class is `signal`, or `crash` if the write wins the race.
    const d = drill('everything-logging', 'idle', 'crash');
    expect(d.verdict).toBe('fail');
    expect(checks(d)).toEqual({ 'exit-on-eof': 'fail', 'no-survivors': 'fail', 'stdout-clean': 'pass' });
    expect(['signal', 'crash']).toContain(d.exit?.class);
  });

  it('server-everything with toggle-simulated-logging, idle/close: only the SIGTERM ends it', () => {
    // By hand: with stdin closed but stdout still read, the log writes succeed: it stays up
    // indefinitely (over 6 s watched). In the drill the client's shutdown SIGTERM ends it at 2 s.
    const d = drill('everything-logging', 'idle', 'close');
    expect(d.verdict).toBe('fail');
    expect(checks(d)).toEqual({ 'exit-on-eof': 'fail', 'no-survivors': 'pass', 'stdout-clean': 'pass' });
    expect(d.exit?.class).toBe('signal');
    expect(d.exit?.signalFrom).toBe('client');
  });

  it.each(['crash', 'close'])('server-everything with toggle-subscriber-updates, idle/%s: never exits on EOF', (mode) => {
    // By hand: the 5 s subscription interval keeps it up forever, crash or close (it writes
    // only for subscribed resources, and there are none, so not even EPIPE ends it).
    // crash: the harness SIGTERMs it after deadline + grace; close: the client's SIGTERM.
    const d = drill('everything-subscriptions', 'idle', mode);
    expect(d.verdict).toBe('fail');
    expect(checks(d)).toEqual({ 'exit-on-eof': 'fail', 'no-survivors': mode === 'crash' ? 'fail' : 'pass', 'stdout-clean': 'pass' });
    expect(d.exit?.class).toBe('signal');
    expect(d.exit?.signalFrom).toBe(mode === 'crash' ? 'harness' : 'client');
  });

  it('server-everything, a 3 s operation in flight, crash: dies of EPIPE when the operation ends', () => {
    // By hand: the step timers keep it up ~2.9 s after EOF; then it writes the result to the
    // dead client and crashes (unhandled EPIPE, code 1): past the 2 s deadline, but before the
    // grace ends, so nothing survives.
    const d = drill('everything-long-running', 'in-flight', 'crash');
    expect(d.verdict).toBe('fail');
    expect(checks(d)).toEqual({ 'exit-on-eof': 'fail', 'no-survivors': 'pass', 'stdout-clean': 'pass' });
    expect(d.exit?.class).toBe('crash');
    expect(d.exit?.crash).toMatch(/EPIPE/);
  });

  it('server-everything, a 3 s operation in flight, close: the client SIGTERMs it at 2 s', () => {
    // By hand: with stdout still read it would finish and exit cleanly ~2.9 s after EOF, later
    // than the SDK client's 2 s wait, so the shutdown's SIGTERM ends it.
    const d = drill('everything-long-running', 'in-flight', 'close');
    expect(d.verdict).toBe('fail');
    expect(checks(d)['exit-on-eof']).toBe('fail');
    expect(d.exit?.class).toBe('signal');
    expect(d.exit?.signalFrom).toBe('client');
  });

  it.each([
    ['memory', 'idle', 'crash'],
    ['memory', 'idle', 'close'],
    ['memory', 'after-response', 'crash'],
    ['memory', 'after-response', 'close'],
    ['memory', 'in-flight', 'close'],
    ['filesystem', 'idle', 'crash'],
    ['filesystem', 'idle', 'close'],
    ['filesystem', 'after-response', 'crash'],
    ['filesystem', 'after-response', 'close'],
  ])('%s %s/%s: exits cleanly within ~50 ms of EOF', (scenario, point, mode) => {
    // By hand: server-memory 10-31 ms, server-filesystem 15-46 ms after stdin closes, code 0:
    // nothing but stdin holds their event loop.
    const d = drill(scenario, point, mode);
    expect(d.verdict).toBe('pass');
    expect(checks(d)).toEqual(CLEAN);
    expect(d.exit?.class).toBe('clean');
  });

  it('memory in-flight/crash: exits in time whether or not its answer beat the kill', () => {
    // create_entities answers in about a millisecond, so this is a real race. When the answer
    // is written after the client died, the write throws an unhandled EPIPE (the SDK transport
    // has no stdout 'error' handler) and it exits with code 1 (seen in run 1); when the answer
    // was already in the pipe, it exits with code 0 on EOF (seen in run 2). Either way it is
    // gone well within the deadline without a signal, which is what exit-on-eof judges.
    const d = drill('memory', 'in-flight', 'crash');
    expect(d.verdict).toBe('pass');
    expect(checks(d)).toEqual(CLEAN);
    expect(['crash', 'clean']).toContain(d.exit?.class);
    if (d.exit?.class === 'crash') expect(d.exit.crash).toMatch(/EPIPE/);
  });

  it.each([
    ['idle', 'crash'],
    ['idle', 'close'],
    ['after-response', 'crash'],
    ['after-response', 'close'],
  ])('server-memory through npx --no-install, %s/%s: the whole npm exec -> sh -> node chain ends', (point, mode) => {
    // By hand (findRealServer): the server is the node two levels below `npm exec`; it exits
    // 22-30 ms after EOF, then sh and npm follow. The harness judges that node process (the
    // exit record names it), and no-survivors covers the whole chain. Its parent sh reaps it at
    // once, so its own exit code is read only when the 2 ms watch catches the zombie first; else
    // npm exec's, which mirrors it (harness/results/launcher-status.ts).
    const d = drill('memory-npx', point, mode);
    expect(d.verdict).toBe('pass');
    expect(checks(d)).toEqual(CLEAN);
    expect(d.exit).toMatchObject({ class: 'clean', code: 0, signal: null });
    expect(['server', 'launcher']).toContain(d.exit?.statusFrom);
    expect(d.exit?.launcher?.command).toMatch(/^npx /);
    expect(d.exit?.pid).not.toBe(d.exit?.launcher?.pid);
  });

  it.each(['crash', 'close'])('server-everything with logging behind npx, idle/%s: the node server is left behind', (mode) => {
    // By hand: EOF reaches the node server two levels below `npm exec` and it stays up (the
    // logging timer). close: the client's SIGTERM hits only npm (typescript-sdk #2023); npm
    // dies and the node server lives on, re-parented to the drill's holder (a child subreaper;
    // to init, ppid 1, where there is none) until the harness contains it.
    const d = drill('everything-logging-npx', 'idle', mode);
    expect(d.verdict).toBe('fail');
    expect(checks(d)).toEqual({ 'exit-on-eof': 'fail', 'no-survivors': 'fail', 'stdout-clean': 'pass' });
    const server = d.survivors.find((s) => /mcp-server-everything$/.test(s.cmdline[1] ?? ''));
    expect(server?.cmdline[0]).toBe('node');
    if (mode === 'close') expect(server?.ppid).toBe(d.tracking?.subreaper?.pid ?? 1);
  });

  // HARNESS DISAGREES WITH REALITY (reported to the lead): the exit record describes the
  // direct child, `npm exec`, so the close drill says "ended by SIGTERM from the client's
  // shutdown" although the real server never got that signal and survived. Once the executor
  // judges the server found by findRealServer (harness/observe/wrapper.ts), this expectation
  // holds and `it.fails` must become `it`.
  it('server-everything with logging behind npx, idle/close: the exit record is the real server', () => {
    const d = drill('everything-logging-npx', 'idle', 'close');
    const server = d.survivors.find((s) => /mcp-server-everything$/.test(s.cmdline[1] ?? ''));
    expect(d.exit?.pid).toBe(server?.pid);
    expect(d.exit?.signalFrom).not.toBe('client');
  });
});
