/**
 * The holder's watchdog record (harness/drill/holder/holder.pl) on real files: the perl makes
 * it with O_CREAT|O_EXCL|O_NOFOLLOW (0600), or appends to it when it is already a regular file of
 * the holder's user, and never writes through a symlink or into another user's file. Real
 * processes: a perl holder whose control pipe ends without "done", and a sleep below it.
 */
import { spawn } from 'node:child_process';
import { chownSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holderCommand, holderUnavailable } from '../../../harness/drill/holder/holder.js';
import { identify } from '../../../harness/observe/index.js';
import { Cleanup, testDrillId } from '../../support/cleanup.js';
import { until } from '../../support/until.js';
import { tempDir } from '../../support/temp-dir.js';

const uid = process.geteuid?.() ?? 0;
if (uid !== 0) console.log("[holder-record] the case of another user's record skipped: only root can make a file of another user");
const cleanup = new Cleanup();
afterEach(() => cleanup.run());
function folder(): string {
  return tempDir('holder-record-'); // removed after the file (test/support/remove-temp-dirs.ts)
}

/** A holder over `sleep 30` whose harness "dies" (its control pipe ends without done): its stdout and exit code. */
async function watchdogRun(record: string): Promise<{ out: string; code: number | null; drillId: string }> {
  const drillId = testDrillId();
  cleanup.trackDrill(drillId);
  const held = holderCommand('', ['/bin/sleep', '30'], record, undefined, drillId)!;
  const holder = spawn(held[0], held[1], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
  cleanup.track(identify(holder.pid!));
  let out = '';
  const exited = new Promise<number | null>((resolve) => holder.on('exit', (code) => resolve(code)));
  const child = await new Promise<number>((resolve) =>
    holder.stdout!.on('data', (d) => {
      out += d;
      const m = /^child (\d+)$/m.exec(out);
      if (m) resolve(Number(m[1]));
    }),
  );
  // The holder says `child` right after its fork: the record names what the child runs once it
  // has exec'd, so the harness "dies" only then (before, the child is still a copy of the perl).
  await until("the sleep to be exec'd", () => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').startsWith('/bin/sleep\0');
    } catch {
      return false;
    }
  });
  holder.stdin!.end();
  const code = await exited;
  return { out, code, drillId };
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { drillId: string; cmdline: string[]; endedBy: string; by: string });

describe.skipIf(holderUnavailable() !== null)("the holder's watchdog record", () => {
  it('is made 0600 when missing, and appended to when it is already a regular file of ours', async () => {
    const file = join(folder(), 'run.watchdog.jsonl');
    const first = await watchdogRun(file);
    expect([first.code, first.out.match(/^watchdog \d+$/m)?.[0]]).toEqual([0, 'watchdog 1']);
    const st = lstatSync(file);
    expect([st.isFile(), st.uid, st.mode & 0o777]).toEqual([true, uid, 0o600]);
    const second = await watchdogRun(file);
    expect(second.code).toBe(0);
    expect(lines(file).map((r) => [r.drillId, r.cmdline, r.endedBy, r.by])).toEqual([
      [first.drillId, ['/bin/sleep', '30'], 'SIGTERM', 'watchdog'],
      [second.drillId, ['/bin/sleep', '30'], 'SIGTERM', 'watchdog'],
    ]);
  });

  it('is never written through a symlink in its place: the target stays as it was, the watchdog still ends the process', async () => {
    const dir = folder();
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'untouched\n');
    const file = join(dir, 'run.watchdog.jsonl');
    symlinkSync(target, file);
    const run = await watchdogRun(file);
    expect([run.code, run.out.match(/^watchdog \d+$/m)?.[0]]).toEqual([0, 'watchdog 1']);
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it.skipIf(uid !== 0)("is not written when it is another user's file (root only: it makes the other user's file)", async () => {
    const file = join(folder(), 'run.watchdog.jsonl');
    writeFileSync(file, 'theirs\n');
    chownSync(file, 65534, 65534);
    const run = await watchdogRun(file);
    expect([run.code, run.out.match(/^watchdog \d+$/m)?.[0]]).toEqual([0, 'watchdog 1']);
    expect(readFileSync(file, 'utf8')).toBe('theirs\n');
  });
});
