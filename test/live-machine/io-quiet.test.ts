/**
 * The "no I/O" rule of superseded (harness/live-machine/io-quiet.ts) on counters as
 * /proc/PID/io gives them: an idle event loop's 8-byte wake-ups (the figures measured on an
 * idle fake server: 13 and 621 calls of 8 bytes) are quiet; a JSON-RPC ping read and its
 * answer written are not, nor is a read that found nothing, nor another process in the session.
 */
import { describe, expect, it } from 'vitest';
import { quietBetween, sessionCounters } from '../../harness/live-machine/io-quiet.js';
import { procBackend } from '../../harness/live-machine/proc-backend.js';
import { psLsofBackend } from '../../harness/live-machine/ps-lsof-backend.js';

const at = (rchar: number, wchar: number, syscr: number, syscw: number, who = '7:99') => `${who}:${rchar}:${wchar}:${syscr}:${syscw}`;
const base = at(1414657, 401, 221, 26);

describe('quietBetween', () => {
  it('counts 8-byte calls alone as quiet, on each side and together', () => {
    expect(quietBetween(base, base)).toBe(true);
    expect(quietBetween(base, at(1414657 + 104, 401 + 104, 221 + 13, 26 + 13))).toBe(true);
    expect(quietBetween(base, at(1414657 + 4968, 401 + 4968, 221 + 621, 26 + 621))).toBe(true);
    expect(quietBetween(`${base} ${at(10, 10, 1, 1, '8:100')}`, `${at(1414665, 409, 222, 27)} ${at(18, 10, 2, 1, '8:100')}`)).toBe(true);
  });

  it('counts a message read or written, a read that found nothing, and a change of process as I/O', () => {
    const ping = '{"jsonrpc":"2.0","id":9,"method":"ping"}\n'.length;
    const pong = '{"result":{},"jsonrpc":"2.0","id":9}\n'.length;
    expect(quietBetween(base, at(1414657 + ping, 401, 222, 26))).toBe(false);
    expect(quietBetween(base, at(1414657 + ping + 8, 401 + pong + 8, 223, 28))).toBe(false);
    expect(quietBetween(base, at(1414657, 401, 222, 26))).toBe(false);
    expect(quietBetween(base, at(1414657, 401, 221, 26, '7:100'))).toBe(false);
    expect(quietBetween(base, `${base} ${at(0, 0, 0, 0, '8:100')}`)).toBe(false);
    expect(quietBetween(at(5, 5, 1, 1), at(4, 5, 1, 1))).toBe(false);
  });
});

describe('sessionCounters', () => {
  it('reads each process of the session through the /proc backend, and says why the ps + lsof backend cannot', () => {
    const me = { pid: process.pid, startTime: procBackend.process(process.pid)!.startTime };
    const read = sessionCounters([me], procBackend);
    expect(read.unreadable).toBeNull();
    expect(read.counters).toMatch(new RegExp(`^${me.pid}:${me.startTime}:\\d+:\\d+:\\d+:\\d+$`));
    expect(sessionCounters([me], psLsofBackend)).toEqual({ counters: null, unreadable: 'the ps-lsof backend shows no I/O counters' });
  });
});
