/**
 * vitest setupFiles: with CRASH_DRILL_FILE_CPU set (npm run bench:suite sets it to a file), each
 * test file appends one line there: its worker's pid, its start and end, and the CPU its worker
 * spent on it, its own and that of every descendant the worker waited for (utime, stime, cutime
 * and cstime of /proc/self/stat: drills, servers, CLI runs, holders, which reap what they hold).
 * Two workers run two files at once, and each worker's figure counts only its own file's. A daemon
 * that init reaped is in no figure. Without the variable it does nothing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

/** CPU ticks of this process and of its waited-for descendants. */
function ticks(): { own: number; children: number } {
  // Fields after the command's closing parenthesis: state is 3, utime 14 ... cstime 17 (proc(5)).
  const after = readFileSync('/proc/self/stat', 'utf8').split(') ').pop()!.split(' ');
  const at = (field: number) => Number(after[field - 3]);
  return { own: at(14) + at(15), children: at(16) + at(17) };
}

const log = process.env.CRASH_DRILL_FILE_CPU;
if (log) {
  let start = { t: Date.now(), ...ticks() };
  beforeAll(() => {
    start = { t: Date.now(), ...ticks() };
  });
  afterAll(() => {
    const end = ticks();
    const file = expect.getState().testPath ?? null;
    appendFileSync(
      log,
      `${JSON.stringify({ pid: process.pid, file, start: start.t, end: Date.now(), ownTicks: end.own - start.own, childTicks: end.children - start.children })}\n`,
    );
  });
}
