/**
 * The rmcp matrices: the fake servers on rmcp 3.11.0 (fake-servers/rust/), drilled by the real
 * CLI from test/rust-sdk/scenarios/, every drill's verdict, era and check verdicts asserted exactly:
 * - the engine matrix (exit-on-eof, no-survivors, stdout-clean) over every behaviour, where a
 *   call in flight at EOF holds the server for rmcp's 5 s drain (slow-tool, ignores-cancel,
 *   awaits-sampling) and slow-tool-drain shows it exit on its own after it;
 * - the era matrix: rmcp answers server/discover (2026-07-28); awaits-sampling pins 2025-11-25;
 * - the cancel matrix (silent-after-cancel, stops-after-cancel, alive-after-cancel), where rmcp
 *   drops the answer of a cancelled request, unlike every Go SDK.
 * One run at --concurrency 1 and one at the default schedule must give the same table.
 * fake-servers/rust/README.md has the same servers measured with rmcp's own client.
 */
import { describe, expect, it } from 'vitest';
import { cancel, loss, sdkMatrixRuns, withVerdict } from '../support/sdk-matrix.js';
import type { VerdictRow as Row } from '../support/truth-table.js';
import { RMCP_BUILD, rustFakesSuite } from './support/rust-fakes.js';

const built = rustFakesSuite('test/rust-sdk/matrix.e2e.test.ts');
const B = RMCP_BUILD;

/** protocol auto: rmcp 3.11.0 answers server/discover. */
const ERA = '2026-07-28/probed';

/** The truth table: every scenario, point and mode in the scenario files. */
function expectedTable(): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const mode of ['crash', 'close']) {
    for (const point of ['idle', 'in-flight', 'child-spawned', 'after-response'])
      out[`${B}-well-behaved/${point}/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
    // The 5 s drain holds the server past the 1 s deadline although the handler checks its token;
    // after a crash the harness's SIGTERM ends it, after a close the client's, and its sleep child
    // outlives either (kill_on_drop runs only when the runtime drops the task).
    for (const point of ['in-flight', 'child-spawned']) out[`${B}-slow-tool/${point}/${mode}`] = withVerdict(ERA, loss('fail', 'fail'));
    // The drain, then the runtime's wait for the blocking work (30 s): only a signal ends it.
    out[`${B}-ignores-cancel/in-flight/${mode}`] = withVerdict(ERA, loss('fail', mode === 'crash' ? 'fail' : 'pass'));
    out[`${B}-leaks-child/after-response/${mode}`] = withVerdict(ERA, loss('pass', 'fail'));
    out[`${B}-task-keeps-alive/idle/${mode}`] = withVerdict(ERA, loss('fail', mode === 'crash' ? 'fail' : 'pass'));
    // A failed write after EOF is an error value in Rust (no SIGPIPE): exit 0, or 101 from println!'s panic.
    out[`${B}-writes-after-eof/idle/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
    out[`${B}-prints-after-eof/idle/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
    // Waits for a signal once waiting() returns, in both eras: up at the deadline; the close's SIGTERM ends it.
    out[`${B}-waits-for-signal/idle/${mode}`] = withVerdict(ERA, loss('fail', mode === 'crash' ? 'fail' : 'pass'));
    out[`${B}-waits-for-signal-legacy/idle/${mode}`] = withVerdict('2025-11-25/pinned', loss('fail', mode === 'crash' ? 'fail' : 'pass'));
  }
  // Close only (the scenario says why): the drain outlasts close-wait, the client's SIGTERM ends it.
  out[`${B}-awaits-sampling/in-flight/close`] = withVerdict('2025-11-25/pinned', loss('fail', 'pass'));
  out[`${B}-slow-tool-drain/in-flight/crash`] = withVerdict(ERA, loss('pass', 'pass'));
  for (const point of ['in-flight', 'child-spawned']) out[`${B}-cancel-slow-tool/${point}/cancel`] = withVerdict(ERA, cancel('pass', 'pass'));
  // Its answer comes 400 ms after the call, and rmcp drops it (#957): silent-after-cancel passes, outlasts-cancel as it is.
  out[`${B}-cancel-ignores-cancel/in-flight/cancel`] = withVerdict(ERA, cancel('pass', 'pass'));
  // Its answer is the call's own end at the kill point, not a cancellation: it passes whether it crossed the cancel or not.
  out[`${B}-cancel-leaks-child/child-spawned/cancel`] = withVerdict(ERA, cancel('pass', 'fail'));
  return out;
}

describe.skipIf(!built)('the rmcp matrices', () => {
  const runs = sdkMatrixRuns({
    scenarios: 'test/rust-sdk/scenarios',
    expected: expectedTable,
    dimensions: 'behaviour × point × mode',
  });

  it('the evidence names what each server did', () => {
    const find = (key: string) => runs.one.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;
    const check = (key: string, id: string) => find(key).checks.find((c) => c.id === id)!;
    expect(find(`${B}-well-behaved/idle/crash`).exit).toMatchObject({ class: 'clean', code: 0 });
    expect(find(`${B}-well-behaved/idle/crash`).handshake).toMatchObject({ serverName: 'rmcp-well-behaved', protocolVersion: '2026-07-28' });

    // No SIGPIPE in Rust: after a crash the write after EOF fails with EPIPE, the error is a value.
    const wrote = find(`${B}-writes-after-eof/idle/crash`);
    expect(wrote.exit).toMatchObject({ class: 'clean', code: 0, signal: null });
    expect(wrote.exit?.stderrTail).toMatch(/last write written=Err\(Os \{ code: 32, kind: BrokenPipe/);
    // println! turns the same error into a panic: exit 101, classed a crash, still its own end.
    const printed = find(`${B}-prints-after-eof/idle/crash`);
    expect(printed.exit).toMatchObject({ class: 'crash', code: 101, signal: null });
    expect(printed.exit?.crash).toMatch(/^thread 'main' \(\d+\) panicked at .*library\/std\/src\/io\/stdio\.rs/);
    expect(printed.exit?.stderrTail).toContain('failed printing to stdout: Broken pipe (os error 32)');
    // waits-for-signal served tools/list, so waiting() returned at EOF and it waits: the harness's SIGTERM ends it, in both eras.
    for (const key of [`${B}-waits-for-signal/idle/crash`, `${B}-waits-for-signal-legacy/idle/crash`]) {
      expect(find(key).exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
      expect(find(key).exit?.stderrTail).toContain('waiting() returned; waiting for a signal');
    }
    for (const key of [`${B}-writes-after-eof/idle/close`, `${B}-prints-after-eof/idle/close`])
      expect(find(key).exit).toMatchObject({ class: 'clean', code: 0 });

    // The drain: exit 0 on its own once rmcp gave up waiting (5 s) and the token fired.
    const drained = find(`${B}-slow-tool-drain/in-flight/crash`);
    expect(drained.exit).toMatchObject({ class: 'clean', code: 0 });
    expect(drained.exit?.afterLossMs).toBeGreaterThanOrEqual(5000);
    expect(drained.exit?.afterLossMs).toBeLessThan(7000);
    expect(drained.exit?.stderrTail).toContain('timed out draining in-flight responses');
    const held = find(`${B}-slow-tool/child-spawned/crash`);
    expect(held.exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
    expect(held.survivors.map((s) => s.cmdline.join(' ')).sort()).toEqual([expect.stringMatching(/rmcp-3\.11\.0\/slow-tool$/), 'sleep 30.000']);

    expect(find(`${B}-task-keeps-alive/idle/crash`).exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
    expect(find(`${B}-awaits-sampling/in-flight/close`).exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'client' });
    expect(find(`${B}-leaks-child/after-response/crash`).survivors.map((s) => s.cmdline)).toEqual([['sleep', '300']]);

    // The cancelled call's answer never goes out (rmcp drops it), unlike every Go SDK's.
    expect(check(`${B}-cancel-ignores-cancel/in-flight/cancel`, 'silent-after-cancel').summary).toMatch(/^nothing the cancel caused for the cancelled request/);
    expect(check(`${B}-cancel-leaks-child/child-spawned/cancel`, 'stops-after-cancel').summary).toMatch(
      /still running 2000 ms after the cancel: pid \d+ \(sleep 300\)/,
    );
  });
});
