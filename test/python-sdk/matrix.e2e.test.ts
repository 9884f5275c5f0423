/**
 * The Python SDK matrix: the fake servers on the real Python SDK (mcp 2.3.0, MCPServer) and on
 * FastMCP 4.0.10 (fake-servers/python-sdk/), the SDK's example of an activity record kept right,
 * and the SDK 2 slow starter, drilled by the real CLI
 * from test/python-sdk/scenarios/ with the default (phase-aware) schedule. Every drill's verdict,
 * era and check outcome is asserted exactly (`npm run bench:schedule` runs it one drill at a time
 * too, and holds both runs to the same table).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvidenceLog } from '../../harness/evidence/log.js';
import { judge } from '../../harness/results/judge.js';
import type { Diagnosis, DrillResult } from '../../harness/results/types.js';
import { DAEMON_FIX, NODE_CHILD_FIX, NODE_STDOUT_FIX, POPEN_FIX, SDK1_FIX, THREAD_FIX } from '../support/diagnosis-fixes.js';
import { sdkMatrixRuns } from '../support/sdk-matrix.js';
import { REMOTE_CHECKS_PASS } from '../support/truth-table.js';
import { pythonSdkSuite } from './support/python-sdk.js';

const FILE = 'test/python-sdk/matrix.e2e.test.ts';
const python = pythonSdkSuite(FILE);

type Row = Record<string, string>;
const row = (exit: string, survivors: string, stdout = 'pass'): Row => ({
  verdict: [exit, survivors, stdout].includes('fail') ? 'fail' : 'pass',
  era: '2026-07-28',
  'exit-on-eof': exit,
  'no-survivors': survivors,
  'stdout-clean': stdout,
});

/** The truth table: every server, point and mode in the scenario files. */
function expectedTable(): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const fw of ['mcpserver', 'fastmcp']) {
    for (const mode of ['crash', 'close']) {
      for (const point of ['idle', 'after-response']) out[`${fw}-well-behaved/${point}/${mode}`] = row('pass', 'pass');
      // The server exits on EOF; the child its tool started lives on (in its group, or in a session of its own).
      if (mode === 'crash') out[`${fw}-popen-child/after-response/${mode}`] = row('pass', 'fail');
      if (mode === 'crash') out[`${fw}-new-session-child/after-response/${mode}`] = row('pass', 'fail');
      // The thread keeps the interpreter up: after a crash it survives; close's SIGTERM ends it.
      out[`${fw}-thread-keeps-alive/idle/${mode}`] = row('fail', mode === 'crash' ? 'fail' : 'pass');
      out[`${fw}-call-in-flight/in-flight/${mode}`] = row('pass', 'pass');
      out[`${fw}-stdout-noise/idle/${mode}`] = row('pass', 'pass', 'fail');
      // The rule: a slow start changes neither the era nor a verdict.
      out[`${fw}-slow-start-3s/idle/${mode}`] = row('pass', 'pass');
      if (mode === 'crash') out[`${fw}-slow-start-10s/idle/${mode}`] = row('pass', 'pass');
    }
  }
  out['sdk2-slow-start-10s/idle/crash'] = row('pass', 'pass');
  // The activity record kept right: started before the write arrives, and its end before the exit
  // (result, or unresolved when EOF cancelled the call first: either is an end).
  for (const point of ['sent', 'confirmed'])
    for (const mode of ['crash', 'close'])
      out[`mcpserver-records-activity/${point}/${mode}`] = { ...row('pass', 'pass'), ...REMOTE_CHECKS_PASS, 'activity-recorded': 'pass' };
  return out;
}

describe.skipIf(!python)('the Python SDK matrix', () => {
  const runs = sdkMatrixRuns({
    scenarios: 'test/python-sdk/scenarios',
    // The interpreter and the repository as absolute paths.
    replace: { '../../../.venv-pysdk/bin/python': python ?? '' },
    era: (d) => d.era?.era ?? 'none',
    expected: expectedTable,
    dimensions: 'server × point × mode',
    columns: 'verdicts',
    timeout: 900_000,
  });

  it('the evidence names what each server did', () => {
    const find = (key: string) => runs.one.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;
    for (const fw of ['mcpserver', 'fastmcp']) {
      expect(find(`${fw}-well-behaved/idle/crash`).exit).toMatchObject({ class: 'clean', code: 0 });
      expect(find(`${fw}-well-behaved/idle/crash`).handshake).toMatchObject({ serverName: `${fw}-well-behaved`, protocolVersion: '2026-07-28' });

      // Popen's child stays in the server's session; start_new_session's leads its own.
      const popen = find(`${fw}-popen-child/after-response/crash`);
      expect(popen.survivors.map((s) => s.cmdline)).toEqual([['sleep', '300']]);
      expect(popen.survivors[0].sid).not.toBe(popen.survivors[0].pid);
      const session = find(`${fw}-new-session-child/after-response/crash`);
      expect(session.survivors.map((s) => s.cmdline)).toEqual([['sleep', '300']]);
      expect(session.survivors[0]).toMatchObject({ sid: session.survivors[0].pid, pgid: session.survivors[0].pid });

      // The thread: only a signal ended the server.
      expect(find(`${fw}-thread-keeps-alive/idle/crash`).exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
      expect(find(`${fw}-thread-keeps-alive/idle/close`).exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'client' });

      // On EOF the SDK answers the call in flight with -32000 "Connection closed"; after a crash
      // that write meets a closed pipe, and the server dies of BrokenPipeError (still on its own).
      expect(find(`${fw}-call-in-flight/in-flight/crash`).exit).toMatchObject({ class: 'crash', code: 1, crash: expect.stringContaining('BrokenPipeError') });
      expect(find(`${fw}-call-in-flight/in-flight/close`).exit).toMatchObject({ class: 'clean', code: 0 });

      expect(find(`${fw}-stdout-noise/idle/crash`).checks.find((c) => c.id === 'stdout-clean')!.summary).toContain(`"${fw}-stdout-noise: starting on stdio"`);
    }

    // The record names the write before it arrived, and ends it before the server exits.
    for (const key of ['mcpserver-records-activity/sent/crash', 'mcpserver-records-activity/confirmed/close']) {
      const drill = find(key);
      expect(drill.checks.find((c) => c.id === 'activity-recorded')!.summary).toMatch(
        /^the write the remote received was in the server's record before it arrived, and every action it started was ended before it exited \((1 result, 0 unresolved|0 results, 1 unresolved)\)$/,
      );
      expect(drill.incident.activity).toMatchObject({
        lastStarted: { key: `${drill.id}:write`, operation: 'deploy' },
        lastEnded: { key: `${drill.id}:write` },
      });
    }
  });

  // The diagnosis of the mcpserver fakes' crash drills, from this run: each names its server's
  // actual cause and fix (harness/results/diagnosis.ts), the well-behaved one gets none, and
  // judging the saved evidence log again gives the same.
  it('the diagnosis: thread-keeps-alive waits for a non-daemon thread; popen and new-session children; well-behaved: none', () => {
    const names = ['mcpserver-well-behaved', 'mcpserver-thread-keeps-alive', 'mcpserver-popen-child', 'mcpserver-new-session-child'];
    const drills = runs.one.filter((r) => names.includes(r.scenario) && r.mode === 'crash');
    expect(drills.map((r) => r.key).sort()).toEqual([
      'mcpserver-new-session-child/after-response/crash',
      'mcpserver-popen-child/after-response/crash',
      'mcpserver-thread-keeps-alive/idle/crash',
      'mcpserver-well-behaved/after-response/crash',
      'mcpserver-well-behaved/idle/crash',
    ]);
    const d = new Map(drills.map((r) => [r.key, r]));
    const diagnosisOf = (r: DrillResult | undefined): Diagnosis[] => r?.incident.diagnosis ?? [];
    const fixes = (r: DrillResult | undefined): string[] => diagnosisOf(r).map((g) => `${g.check}: ${g.fix}`);
    const thread = diagnosisOf(d.get('mcpserver-thread-keeps-alive/idle/crash'));
    expect(fixes(d.get('mcpserver-thread-keeps-alive/idle/crash'))).toEqual([`exit-on-eof: ${THREAD_FIX}`, `no-survivors: ${THREAD_FIX}`]);
    expect(thread[0].cause).toMatch(
      /^the interpreter waits for a non-daemon thread: the SDK's stdio transport read EOF and run\(\) returned \(no event loop, no thread reads stdin\), but the main thread is blocked at shutdown \(futex\w*\) joining 1 other thread \(\d+( in \w+)?\); it ended \d+ ms after the loss by SIGTERM from the harness$/,
    );
    // The watcher sleeps 100 ms at a time: caught asleep (hrtimer_nanosleep) or, on a busy machine, running.
    expect(thread[0].observed).toContain('no event loop (no epoll instance)');
    expect(thread[0].observed).toContainEqual(expect.stringMatching(/^2 threads: main \(python\d*(\.\d+)?\) S in futex\w*; 1 python\S* [RS]( in \w+)?$/));
    // The script imports mcp only: FastMCP beside it in the venv is not named.
    expect(thread[0].observed).toContainEqual(
      expect.stringMatching(/^SDK: python 3\.\d+; serverInfo mcpserver-thread-keeps-alive( \S+)?; MCP SDK: mcp 2\.3\.0 \(\S+mcp-2\.3\.0\.dist-info\)$/),
    );
    expect(thread[0].sdk).toBe(
      'Python SDK 2.3.0: at stdin EOF, run() returns; the interpreter then exits unless a non-daemon thread or a child keeps it (python-sdk #2678)',
    );

    expect(fixes(d.get('mcpserver-popen-child/after-response/crash'))).toEqual([`no-survivors: ${POPEN_FIX}`]);
    expect(fixes(d.get('mcpserver-new-session-child/after-response/crash'))).toEqual([`no-survivors: ${DAEMON_FIX}`]);
    expect(diagnosisOf(d.get('mcpserver-popen-child/after-response/crash'))[0].observed[0]).toMatch(
      /^pid \d+ was started by the server \(pid \d+\), \d+ ms before the client was lost: sleep 300; in process group \d+; its parent died and it was re-parented$/,
    );

    // The other way: the well-behaved server gets none; no Node fix on a Python server, and each
    // child server only its own (exact lists above).
    for (const key of ['mcpserver-well-behaved/idle/crash', 'mcpserver-well-behaved/after-response/crash']) {
      expect(d.get(key)?.verdict, key).toBe('pass');
      expect(diagnosisOf(d.get(key)), key).toEqual([]);
    }
    const everyFix = drills.flatMap((r) => diagnosisOf(r).map((g) => g.fix));
    for (const fix of [SDK1_FIX, NODE_CHILD_FIX, NODE_STDOUT_FIX]) expect(everyFix).not.toContain(fix);

    for (const r of drills) expect(judge(readEvidenceLog(join(runs.out, 'evidence', `${r.id}.jsonl`))).incident.diagnosis, r.key).toEqual(r.incident.diagnosis);
  });
});
