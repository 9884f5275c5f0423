/**
 * The Java SDK matrices: the fake servers on io.modelcontextprotocol.sdk:mcp 2.2.0
 * (fake-servers/java/), drilled by the real CLI from test/java-sdk/scenarios/, every drill's
 * verdict, era and check verdicts asserted exactly:
 * - the engine matrix (exit-on-eof, no-survivors, stdout-clean) over every behaviour: the classic
 *   server cancels nothing at EOF, so a call in flight, or a handler waiting on the client, holds
 *   the JVM up (slow-tool, ignores-cancel, awaits-sampling fail), as a non-daemon thread does;
 * - the era matrix: the classic server has no server/discover, so protocol auto falls back to
 *   2025-11-25 (awaits-sampling pins it, as the other SDKs' drills do);
 * - the cancel matrix: no handler for notifications/cancelled, so a cancelled call goes on: its
 *   child outlives the cancel (stops-after-cancel fails) and its answer goes out
 *   (silent-after-cancel fails when it comes within the window, 3 s here: a loaded JVM was seen
 *   to answer the follow-up tools/list later than the Go drills' 800 ms).
 * One run at --concurrency 1 and one at the default schedule must give the same table.
 * fake-servers/java/README.md has the same servers measured with the SDK's own client.
 */
import { describe, expect, it } from 'vitest';
import { cancel, loss, sdkMatrixRuns, withVerdict } from '../support/sdk-matrix.js';
import type { VerdictRow as Row } from '../support/truth-table.js';
import { JAVA_BUILD, javaFakesSuite } from './support/java-fakes.js';

const built = javaFakesSuite('test/java-sdk/matrix.e2e.test.ts');
const B = JAVA_BUILD;

/** protocol auto: server/discover gets -32601 (no such method in the classic server): fell back. */
const ERA = '2025-11-25/fell-back';

/** The truth table: every scenario, point and mode in the scenario files. */
function expectedTable(): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const mode of ['crash', 'close']) {
    // A crash leaves a JVM that waits to the harness's SIGTERM (after deadline and grace: a
    // survivor); close's SIGTERM ends it within the grace.
    const heldUp = loss('fail', mode === 'crash' ? 'fail' : 'pass');
    for (const point of ['idle', 'in-flight', 'child-spawned', 'after-response'])
      out[`${B}-well-behaved/${point}/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
    // The call in flight at EOF is waited for (30 s); its sleep child outlives the JVM's SIGTERM.
    for (const point of ['in-flight', 'child-spawned']) out[`${B}-slow-tool/${point}/${mode}`] = withVerdict(ERA, loss('fail', 'fail'));
    out[`${B}-ignores-cancel/in-flight/${mode}`] = withVerdict(ERA, heldUp);
    // The handler's ping is never answered: it waits the SDK's request timeout (10 s).
    out[`${B}-awaits-sampling/in-flight/${mode}`] = withVerdict('2025-11-25/pinned', heldUp);
    out[`${B}-leaks-child/after-response/${mode}`] = withVerdict(ERA, loss('pass', 'fail'));
    out[`${B}-thread-keeps-alive/idle/${mode}`] = withVerdict(ERA, heldUp);
    // The shutdown hook's write after a crash fails silently (PrintStream): exit 0.
    out[`${B}-writes-after-eof/idle/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
  }
  // The answer of the 6 s call comes after the 3 s window; its sleep child is still there.
  for (const point of ['in-flight', 'child-spawned']) out[`${B}-cancel-slow-tool/${point}/cancel`] = withVerdict(ERA, cancel('pass', 'fail'));
  out[`${B}-cancel-ignores-cancel/in-flight/cancel`] = withVerdict(ERA, cancel('fail', 'pass'));
  // Its answer is the call's own end at the kill point, not a cancellation: it passes whether it crossed the cancel or not.
  out[`${B}-cancel-leaks-child/child-spawned/cancel`] = withVerdict(ERA, cancel('pass', 'fail'));
  return out;
}

describe.skipIf(!built)('the Java SDK matrices', () => {
  const runs = sdkMatrixRuns({
    scenarios: 'test/java-sdk/scenarios',
    expected: expectedTable,
    dimensions: 'behaviour × point × mode',
  });

  it('the evidence names what each server did', () => {
    const find = (key: string) => runs.one.find((d) => `${d.scenario}/${d.point}/${d.mode}` === `${B}-${key}`)!;
    const check = (key: string, id: string) => find(key).checks.find((c) => c.id === id)!;
    expect(find('well-behaved/idle/crash').exit).toMatchObject({ class: 'clean', code: 0 });
    expect(find('well-behaved/idle/crash').handshake).toMatchObject({ serverName: 'java-sdk-well-behaved' });
    expect(find('well-behaved/idle/crash').era?.fallbackReason).toMatch(/Method not found: server\/discover$/);

    // The write after a crash fails and the PrintStream swallows it: exit 0, no SIGPIPE.
    const silent = find('writes-after-eof/idle/crash');
    expect(silent.exit).toMatchObject({ class: 'clean', code: 0, signal: null });
    expect(silent.exit?.stderrTail).toContain('last write: failed (PrintStream.checkError)');
    expect(find('writes-after-eof/idle/close').exit?.stderrTail).toContain('last write: ok');

    expect(find('leaks-child/after-response/crash').survivors.map((s) => s.cmdline)).toEqual([['sleep', '300']]);

    // SIGTERM makes the JVM run its shutdown hooks and exit 143: an exit code, after the signal.
    const waited = find('slow-tool/child-spawned/crash');
    expect(waited.exit).toMatchObject({ class: 'exit-code', code: 143, signal: null, endedAfter: 'SIGTERM from the harness' });
    expect(waited.survivors.map((s) => s.cmdline.join(' ')).sort()).toEqual([
      expect.stringMatching(/^java -XX:-UsePerfData -XX:SharedArchiveFile=\/.+\/cds\/slow-tool\.jsa -Xlog:cds\*=off -jar \/.+\/slow-tool\.jar$/),
      'sleep 30.000',
    ]);
    expect(find('thread-keeps-alive/idle/close').exit).toMatchObject({ class: 'exit-code', code: 143, endedAfter: "SIGTERM from the client's shutdown" });
    expect(find('awaits-sampling/in-flight/crash').exit?.stderrTail).toContain('ask: waiting for ping');

    // A cancelled call goes on: its answer still goes out, its child still runs.
    expect(check('cancel-ignores-cancel/in-flight/cancel', 'silent-after-cancel').summary).toMatch(/after the cancel, the first \d+ ms after: the response/);
    expect(check('cancel-leaks-child/child-spawned/cancel', 'stops-after-cancel').summary).toMatch(/still running 3000 ms after the cancel: pid \d+/);
  });
});
