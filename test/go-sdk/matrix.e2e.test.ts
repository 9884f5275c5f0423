/**
 * The Go SDK matrices: the fake servers on go-sdk v1.8.0, go-sdk v1.6.1 and mcp-go v1.2.1
 * (fake-servers/go/), drilled by the real CLI from test/go-sdk/scenarios/, every drill's verdict,
 * era and check verdicts asserted exactly:
 * - the engine matrix (exit-on-eof, no-survivors, stdout-clean) over every behaviour, where
 *   v1.6.1 and v1.8.0 part on the call in flight at EOF (slow-tool);
 * - the era matrix: the era each build negotiates with protocol auto (awaits-sampling pins
 *   2025-11-25, where a server may still send sampling requests);
 * - the cancel matrix (silent-after-cancel, stops-after-cancel, alive-after-cancel).
 * One run at --concurrency 1 and one at the default schedule must give the same table.
 * fake-servers/go/README.md has the same servers measured with the SDKs' own clients.
 */
import { describe, expect, it } from 'vitest';
import { OWN_WRITE } from '../../harness/evidence/own-sigpipe.js';
import { cancel, loss, sdkMatrixRuns, withVerdict } from '../support/sdk-matrix.js';
import type { VerdictRow as Row } from '../support/truth-table.js';
import { GO_BUILDS, type GoBuild, goFakesSuite } from './support/go-fakes.js';

const built = goFakesSuite('test/go-sdk/matrix.e2e.test.ts');

/** protocol auto: go-sdk v1.8.0 and mcp-go v1.2.1 answer server/discover; v1.6.1 does not. */
const ERA: Record<GoBuild, string> = {
  'go-sdk-v1.8.0': '2026-07-28/probed',
  'go-sdk-v1.6.1': '2025-11-25/fell-back',
  'mcp-go-v1.2.1': '2026-07-28/probed',
};

/** The truth table: every build, scenario, point and mode in the scenario files. */
function expectedTable(): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const build of GO_BUILDS) {
    const era = ERA[build];
    for (const mode of ['crash', 'close']) {
      for (const point of ['idle', 'in-flight', 'after-response']) out[`${build}-well-behaved/${point}/${mode}`] = withVerdict(era, loss('pass', 'pass'));
      // The call in flight at EOF: go-sdk cancels it since v1.7.0, mcp-go v1.2.1 too; v1.6.1's
      // Run waits for it (30 s), and its sleep child outlives the server's SIGTERM.
      const waits = build === 'go-sdk-v1.6.1';
      for (const point of ['in-flight', 'child-spawned'])
        out[`${build}-slow-tool/${point}/${mode}`] = withVerdict(era, waits ? loss('fail', 'fail') : loss('pass', 'pass'));
      // A handler that never checks its context: every SDK waits for it, and its sleep child
      // outlives the server. After a crash only containment ends them; after a close the client's
      // SIGTERM (go-sdk) or SIGKILL (mcp-go, which catches SIGTERM) ends the server alone.
      out[`${build}-ignores-cancel/child-spawned/${mode}`] = withVerdict(era, loss('fail', 'fail'));
      out[`${build}-awaits-sampling/in-flight/${mode}`] = withVerdict('2025-11-25/pinned', loss('pass', 'pass'));
      out[`${build}-leaks-child/after-response/${mode}`] = withVerdict(era, loss('pass', 'fail'));
      out[`${build}-goroutine-keeps-alive/idle/${mode}`] = withVerdict(era, loss('fail', mode === 'crash' ? 'fail' : 'pass'));
      // SIGPIPE on its own write after a crash: its own end, within the deadline.
      out[`${build}-writes-after-eof/idle/${mode}`] = withVerdict(era, loss('pass', 'pass'));
      // main waits for a signal after the run call returns: it stays up; only the close's SIGTERM ends it.
      out[`${build}-waits-for-signal/idle/${mode}`] = withVerdict(era, loss('fail', mode === 'crash' ? 'fail' : 'pass'));
    }
    // The cancel kills the sleep child, and the handler's error ('signal: killed') is answered: a
    // cancellation, which the cancel caused (every Go SDK writes a cancelled handler's answer).
    out[`${build}-cancel-slow-tool/child-spawned/cancel`] = withVerdict(era, cancel('fail', 'pass'));
    // Its response goes out when the 1000 ms sleep ends, after the server read the cancel
    // (outlasts-cancel): every SDK writes it (none drops a cancelled request's answer).
    out[`${build}-cancel-ignores-cancel/child-spawned/cancel`] = withVerdict(era, cancel('fail', 'pass'));
    // Its answer is the call's own end at the kill point, not a cancellation: it passes whether it
    // crossed the cancel or not.
    out[`${build}-cancel-leaks-child/child-spawned/cancel`] = withVerdict(era, cancel('pass', 'fail'));
  }
  return out;
}

describe.skipIf(!built)('the Go SDK matrices', () => {
  const runs = sdkMatrixRuns({
    scenarios: 'test/go-sdk/scenarios',
    expected: expectedTable,
    dimensions: 'build × behaviour × point × mode',
  });

  it('the evidence names what each server did', () => {
    const find = (key: string) => runs.one.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;
    const check = (key: string, id: string) => find(key).checks.find((c) => c.id === id)!;
    for (const build of GO_BUILDS) {
      const sdk = build.startsWith('mcp-go') ? 'mcp-go' : 'go-sdk';
      expect(find(`${build}-well-behaved/idle/crash`).exit).toMatchObject({ class: 'clean', code: 0 });
      expect(find(`${build}-well-behaved/idle/crash`).handshake).toMatchObject({ serverName: `${sdk}-well-behaved` });

      // SIGPIPE: after a crash the write after Run returned met a closed stdout; nobody sent it.
      const sigpipe = find(`${build}-writes-after-eof/idle/crash`);
      expect(sigpipe.exit).toMatchObject({ class: 'broken-pipe', signal: 'SIGPIPE', signalFrom: OWN_WRITE, endedAfter: null });
      expect(sigpipe.incident.termination).toBe(`ended on its own: SIGPIPE on ${OWN_WRITE} (nobody sent it a signal)`);
      expect(check(`${build}-writes-after-eof/idle/crash`, 'exit-on-eof').summary).toMatch(new RegExp(`\\(SIGPIPE on ${OWN_WRITE}, its own end\\)$`));
      // Waiting for a signal after the run call: up at the deadline, ended by the harness after a crash, by the client's SIGTERM after a close.
      expect(check(`${build}-waits-for-signal/idle/crash`, 'exit-on-eof').summary).toMatch(
        /^the server did not exit on EOF: it was ended by SIGTERM from the harness/,
      );
      expect(find(`${build}-waits-for-signal/idle/close`).exit).toMatchObject({ signal: null, code: 0, endedAfter: "SIGTERM from the client's shutdown" });
      // After a close the client still reads: the same write succeeds and the server exits 0.
      expect(find(`${build}-writes-after-eof/idle/close`).exit).toMatchObject({ class: 'clean', code: 0 });

      expect(find(`${build}-leaks-child/after-response/crash`).survivors.map((s) => s.cmdline)).toEqual([['sleep', '300']]);
    }

    // The in-flight change: v1.8.0 cancels the call at EOF and exits 0; v1.6.1 waits for it.
    expect(find('go-sdk-v1.8.0-slow-tool/child-spawned/crash').exit).toMatchObject({ class: 'clean', code: 0 });
    const waited = find('go-sdk-v1.6.1-slow-tool/child-spawned/crash');
    expect(waited.exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
    expect(waited.survivors.map((s) => s.cmdline.join(' ')).sort()).toEqual([expect.stringMatching(/go-sdk-v1\.6\.1\/fakes slow-tool$/), 'sleep 30.000']);
    // mcp-go cancels it too, and its worker then writes the error response: SIGPIPE, its own.
    expect(find('mcp-go-v1.2.1-slow-tool/child-spawned/crash').exit).toMatchObject({ class: 'broken-pipe', signal: 'SIGPIPE' });

    // main waiting on a goroutine: go-sdk dies of the harness's SIGTERM; mcp-go's ServeStdio
    // catches SIGTERM for good, so only SIGKILL ends it.
    expect(find('go-sdk-v1.8.0-goroutine-keeps-alive/idle/crash').exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
    const caught = find('mcp-go-v1.2.1-goroutine-keeps-alive/idle/crash');
    expect(caught.exit).toMatchObject({ class: 'signal', signal: 'SIGKILL', signalFrom: 'harness' });
    expect(caught.forcedContainment).toBe(true);
    expect(find('mcp-go-v1.2.1-goroutine-keeps-alive/idle/close').exit).toMatchObject({ class: 'signal', signal: 'SIGKILL', signalFrom: 'client' });

    // The cancelled call's answer still goes out once the handler returns.
    expect(check('go-sdk-v1.8.0-cancel-ignores-cancel/child-spawned/cancel', 'silent-after-cancel').summary).toMatch(
      /after the cancel, the first \d+ ms after: the response, the call cannot have ended before the server read the cancel \(outlasts-cancel\)$/,
    );
    // The cancel's own answer: go-sdk an isError result, mcp-go a -32603 error, both 'signal: killed'.
    expect(check('go-sdk-v1.8.0-cancel-slow-tool/child-spawned/cancel', 'silent-after-cancel').summary).toMatch(
      /the first \d+ ms after: an error result \(signal: killed\), a cancellation \(.*\): the cancel caused it$/,
    );
    expect(check('mcp-go-v1.2.1-cancel-slow-tool/child-spawned/cancel', 'silent-after-cancel').summary).toMatch(
      /the first \d+ ms after: an error response \(-32603: signal: killed\), a cancellation \(.*\): the cancel caused it$/,
    );
    expect(check('mcp-go-v1.2.1-cancel-leaks-child/child-spawned/cancel', 'stops-after-cancel').summary).toMatch(
      /still running 2000 ms after the cancel: pid \d+ \(sleep 300\)/,
    );
  });
});
