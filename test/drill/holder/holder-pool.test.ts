/**
 * Spare holders (harness/drill/holder/holder-pool.ts): started before their drill, told it in one line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goLine } from '../../../harness/drill/holder/holder.js';
import { HolderPool } from '../../../harness/drill/holder/holder-pool.js';
import { identify, listPids, pollExit, readCmdline, readEnviron, readStat, type ProcIdentity } from '../../../harness/observe/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { until } from '../../support/until.js';

const lines = (stream: NodeJS.ReadableStream): (() => string[]) => {
  let text = '';
  stream.on('data', (d) => (text += d));
  return () => text.split('\n').filter(Boolean);
};

describe('a spare holder', () => {
  it('is a subreaper and ready before its drill; its go line gives the client its environment, marker and arguments, none of which the holder carries', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.txt');
    const pool = new HolderPool(['/bin/sh', '-c', 'printf "%s|%s|%s" "$FOO" "$CRASH_DRILL_RUN" "$2" > "$1"; exec sleep 30', 'sh'], '3,4,5,6', 1);
    const spare = pool.take()!;
    expect(spare).not.toBeNull();
    const reports = lines(spare.stdout!);
    await until('ready', () => reports().includes('ready'));
    expect(reports()).toEqual(['subreaper 1', 'ready']);
    const holder = identify(spare.pid!)!;
    expect(readEnviron(holder.pid)?.get('FOO')).toBeUndefined();

    spare.stdin!.write(goLine('', '', 'cd-test.1', { FOO: 'a b\nc', CRASH_DRILL_RUN: 'ignored', PATH: process.env.PATH! }, [out, 'x y']));
    const child = Number((await until('child', () => reports().find((l) => l.startsWith('child ')))).split(' ')[1]);
    await until('the client to write', () => {
      try {
        return readFileSync(out, 'utf8').length > 0;
      } catch {
        return false;
      }
    });
    // The environment from the go line (a value with a space and a newline), the marker from the drill id (never from the environment), the arguments appended.
    expect(readFileSync(out, 'utf8')).toBe('a b\nc|cd-test.1|x y');
    expect(readEnviron(holder.pid)?.get('CRASH_DRILL_RUN')).toBeUndefined();
    expect(readEnviron(child)?.get('CRASH_DRILL_RUN')).toBe('cd-test.1');

    // Its control pipe ends without "done": the watchdog ends the client, then the holder exits.
    const clientId = identify(child)!;
    spare.stdin!.end();
    expect(await pollExit(clientId, { timeoutMs: 5_000 })).not.toBeNull();
    expect(await pollExit(holder, { timeoutMs: 5_000 })).not.toBeNull();
    await pool.close();
  });

  it('a spare no drill took exits when the pool closes, and one whose control pipe ends before a go line exits too', async () => {
    const pool = new HolderPool(['/bin/sleep', '30'], '3,4,5,6', 2, 2);
    const first = pool.take()!;
    const firstId = await until('the first spare', () => identify(first.pid!) ?? undefined);
    first.stdin!.end(); // end of file and no go line: nothing to hold
    expect(await pollExit(firstId, { timeoutMs: 5_000 })).not.toBeNull();
    // After the take, the pool keeps a spare for the one drill still to come.
    const second = pool.take()!;
    const secondId = await until('the second spare', () => identify(second.pid!) ?? undefined);
    expect(pool.take()).toBeNull(); // no drill left: no spare started, none given
    second.stdin!.write('done\n');
    expect(await pollExit(secondId, { timeoutMs: 5_000 })).not.toBeNull();
    await pool.close();
  });

  it('the pool ends its untaken spares on close', async () => {
    const spares = (): ProcIdentity[] =>
      listPids()
        .filter((pid) => readStat(pid)?.ppid === process.pid && (readCmdline(pid) ?? []).includes('--wait'))
        .map((pid) => identify(pid))
        .filter((id): id is ProcIdentity => id !== null);
    const pool = new HolderPool(['/bin/sleep', '30'], '3,4,5,6', 3, 2);
    const up = await until('two spares', () => (spares().length === 2 ? spares() : false));
    await pool.close();
    for (const id of up) expect(await pollExit(id, { timeoutMs: 5_000 })).not.toBeNull();
    expect(pool.take()).toBeNull();
  });
});
