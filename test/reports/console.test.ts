import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleReporter, statusLine } from '../../reports/console.js';
import type { DrillResult, RunResults } from '../../reports/types.js';
import { childSpawned, errored, failed, passed, runResults, unknown } from './fixtures.js';

/** A stand-in for process.stdout: it records what was written and says whether it is a TTY. */
class FakeStream {
  chunks: string[] = [];
  constructor(readonly isTTY?: boolean) {}
  write(s: string): boolean {
    this.chunks.push(s);
    return true;
  }
  get text(): string {
    return this.chunks.join('');
  }
}

const ANSI = /\u001b\[/;
const COLOR_VARS = ['NO_COLOR', 'FORCE_COLOR'] as const;
let saved: Record<string, string | undefined>;

beforeEach(() => {
  saved = Object.fromEntries(COLOR_VARS.map((name) => [name, process.env[name]]));
  for (const name of COLOR_VARS) delete process.env[name];
});
afterEach(() => {
  for (const name of COLOR_VARS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** Drives a reporter through a whole run the way the runner does. */
function drive(out: FakeStream, results: RunResults): void {
  const reporter = new ConsoleReporter(out);
  reporter.onRunStart({ runId: results.runId, total: results.drills.length, concurrency: 2, outDir: '/tmp/out' });
  results.drills.forEach((drill: DrillResult, i) => {
    const info = { id: drill.id, key: `${drill.scenario}/${drill.point}/${drill.mode}`, scenario: drill.scenario, point: drill.point, mode: drill.mode };
    reporter.onDrillStart(info);
    reporter.onDrillPhase(info, 'waiting');
    reporter.onDrillEnd(drill, { done: i + 1, total: results.drills.length });
  });
  reporter.onRunEnd(results);
}

const FOUR = () => runResults([passed(), failed(), unknown(), errored()]);

const PLAIN_FOUR = [
  'crash-drill: 4 drills, concurrency 2, run cd-20260101T000000-abcdef',
  '[1/4] PASS    demo idle/crash 800 ms exit-on-eof:pass no-survivors:pass stdout-clean:pass',
  '[2/4] FAIL    demo in-flight/close 800 ms exit-on-eof:pass no-survivors:pass stdout-clean:fail',
  '[3/4] UNKNOWN remote sent/crash 5250 ms exit-on-eof:unknown no-survivors:unknown stdout-clean:pass',
  '[4/4] ERROR   broken idle/crash 40 ms exit-on-eof:unknown no-survivors:unknown stdout-clean:pass',
  '',
  'Drills that did not pass:',
  '  FAIL    demo in-flight/close (cd-20260101T000000-abcdef-0001): stdout-clean: 1 stdout line not JSON-RPC, first: "listening"',
  '      stdout-clean: the server writes text that is not JSON-RPC on stdout: a startup banner (before the handshake)',
  '      fix: write logs to stderr, never to stdout: stdout is the protocol',
  '  UNKNOWN remote sent/crash (cd-20260101T000000-abcdef-0002): kill point sent not reached within 5000 ms: the remote never saw the request',
  '  ERROR   broken idle/crash (cd-20260101T000000-abcdef-0003): spawn: spawn nope ENOENT',
  '',
  '1 passed, 1 failed, 1 unknown, 1 error',
  '',
].join('\n');

describe('ConsoleReporter', () => {
  it('names the process a child-spawned point fired on in the drill line', () => {
    const out = new FakeStream(false);
    drive(out, runResults([childSpawned()]));
    expect(out.text).toContain('[1/1] PASS    demo child-spawned/crash on pid 5151 (sleep 300) 800 ms exit-on-eof:pass');
  });

  it('on a non-TTY prints one line per drill, the drills that did not pass, and the summary line, without ANSI codes', () => {
    const out = new FakeStream(false);
    drive(out, FOUR());
    expect(out.text).toBe(PLAIN_FOUR);
    expect(out.text).not.toMatch(ANSI);
  });

  it('treats a stream without isTTY like a non-TTY', () => {
    const out = new FakeStream(undefined);
    drive(out, FOUR());
    expect(out.text).toBe(PLAIN_FOUR);
  });

  it('prints no "did not pass" section and no error count when everything passed', () => {
    const out = new FakeStream(false);
    drive(out, runResults([passed()]));
    expect(out.text).toBe(
      [
        'crash-drill: 1 drill, concurrency 2, run cd-20260101T000000-abcdef',
        '[1/1] PASS    demo idle/crash 800 ms exit-on-eof:pass no-survivors:pass stdout-clean:pass',
        '',
        '1 passed, 0 failed, 0 unknown',
        '',
      ].join('\n'),
    );
  });

  it('adds ", N error" to the last line only when a drill errored', () => {
    const withoutError = new FakeStream(false);
    drive(withoutError, runResults([passed(), failed(), unknown()]));
    expect(withoutError.text.endsWith('\n\n1 passed, 1 failed, 1 unknown\n')).toBe(true);
    const withErrors = new FakeStream(false);
    drive(withErrors, runResults([errored(), errored()]));
    expect(withErrors.text.endsWith('\n\n0 passed, 0 failed, 0 unknown, 2 error\n')).toBe(true);
  });

  it('lists stale processes of an earlier run and says when the run was interrupted', () => {
    const out = new FakeStream(false);
    const stale = [{ drillId: 'cd-old-0001', pid: 777, startTime: 1, cmdline: ['node', 'old.js'], endedBy: 'SIGTERM' }];
    drive(out, runResults([passed()], { stale, interrupted: true }));
    expect(out.text).toBe(
      [
        'crash-drill: 1 drill, concurrency 2, run cd-20260101T000000-abcdef',
        '[1/1] PASS    demo idle/crash 800 ms exit-on-eof:pass no-survivors:pass stdout-clean:pass',
        '',
        'Left behind by an earlier, killed run (now contained):',
        '  cd-old-0001 pid 777 node old.js -> SIGTERM',
        '',
        'The run was interrupted; active drills were contained.',
        '',
        '1 passed, 0 failed, 0 unknown',
        '',
      ].join('\n'),
    );
  });

  it('colours the output with FORCE_COLOR=1 even on a non-TTY, and the text under the codes is unchanged', () => {
    process.env.FORCE_COLOR = '1';
    const out = new FakeStream(false);
    drive(out, FOUR());
    expect(out.text).toMatch(ANSI);
    expect(out.text).toContain('\u001b[32mPASS   \u001b[39m');
    expect(out.text).toContain('\u001b[31mFAIL   \u001b[39m');
    expect(out.text).toContain('\u001b[33mUNKNOWN\u001b[39m');
    expect(out.text).toContain('\u001b[35mERROR  \u001b[39m');
    expect(out.text).toContain('\u001b[2m[1/4]\u001b[22m');
    expect(out.text).toContain('\u001b[1mDrills that did not pass:\u001b[22m');
    // The summary line stays plain, so a CI log grep finds it.
    expect(out.text.endsWith('\n1 passed, 1 failed, 1 unknown, 1 error\n')).toBe(true);
    expect(out.text.replace(/\u001b\[\d+m/g, '')).toBe(PLAIN_FOUR);
  });

  it('lets NO_COLOR win over FORCE_COLOR and over a TTY for colours', () => {
    process.env.FORCE_COLOR = '1';
    process.env.NO_COLOR = '1';
    const out = new FakeStream(false);
    drive(out, FOUR());
    expect(out.text).toBe(PLAIN_FOUR);
    const tty = new FakeStream(true);
    drive(tty, FOUR());
    expect(tty.text).not.toMatch(/\u001b\[\d+m/); // no colour; only the status line's erase-line code
    expect(tty.text).toContain('\r\u001b[2K');
  });

  it('on a TTY colours the output and keeps a live status line that it clears before the summary', () => {
    const out = new FakeStream(true);
    drive(out, FOUR());
    expect(out.text).toMatch(ANSI);
    expect(out.chunks).toContain('\r\u001b[2K\u001b[2m0/4 done; 1 starting, 0 exiting, 0 waiting, 0 containing: demo/idle/crash\u001b[22m');
    expect(out.chunks).toContain('\r\u001b[2K\u001b[2m1/4 done; 0 starting, 0 exiting, 1 waiting, 0 containing\u001b[22m');
    // Nothing runs any more, so no status line follows the summary: the terminal ends on it.
    expect(out.chunks.slice(-2)).toEqual(['\r\u001b[2K', '\n1 passed, 1 failed, 1 unknown, 1 error\n']);
    expect(out.chunks.filter((c) => c.includes('4/4 done'))).toEqual([]);
  });

  it('the status line counts the drills starting, exiting, waiting and containing, and names the ones starting', () => {
    const live = [
      { key: 'a/idle/crash', phase: 'starting' },
      { key: 'b/idle/crash', phase: 'waiting' },
      { key: 'c/idle/hang', phase: 'waiting' },
      { key: 'd/idle/close', phase: 'containing' },
      { key: 'e/idle/crash', phase: 'starting' },
      { key: 'f/idle/close', phase: 'exiting' },
    ];
    expect(statusLine(3, 9, live)).toBe('3/9 done; 2 starting, 1 exiting, 2 waiting, 1 containing: a/idle/crash | e/idle/crash');
    expect(statusLine(9, 9, [])).toBe('9/9 done; 0 starting, 0 exiting, 0 waiting, 0 containing');
  });

  it('names the CPU slots when the run has fewer than drills in flight', () => {
    const out = new FakeStream(false);
    new ConsoleReporter(out).onRunStart({ runId: 'cd-x', total: 63, concurrency: 8, cpuSlots: 2, outDir: '' });
    expect(out.text).toBe('crash-drill: 63 drills, concurrency 8, run cd-x (2 CPU slots)\n');
  });

  it('says it prints to the terminal', () => {
    expect(new ConsoleReporter(new FakeStream(false)).printsToStdio()).toBe(true);
  });
});
