/** Starting the drill holder (holder.pl) and reading its reports; without perl the client runs without one and the tracking says so. */
import type { ProcIdentity } from '../../observe/index.js';
import { DRILL_ENV } from '../../observe/index.js';
import { findPerl, prctlArgument } from '../../util/perl.js';
import { HOLDER_SCRIPT } from './scripts.js';

export type HolderState = {
  identity: ProcIdentity | null;
  /** true once the holder set PR_SET_CHILD_SUBREAPER, false with the reason when it could not. */
  subreaper: { ok: true } | { ok: false; reason: string } | null;
  clientPid: number | null;
  /** How many processes the watchdog signalled (only when the harness died). */
  watchdogSignalled: number | null;
  /** The client's own CPU (clock ticks), read from its zombie before the reap; null when not read. */
  clientCpuTicks?: number | null;
};

/** The holder's inherited descriptors that belong to the client alone: the IPC channel and the subject's stderr. */
const CLIENT_ONLY_FDS = '3,4';

export function holderUnavailable(): string | null {
  if (process.platform !== 'linux') return `a child subreaper needs Linux (this is ${process.platform})`;
  if (process.env.CRASH_DRILL_SUBREAPER === 'off') return 'turned off by CRASH_DRILL_SUBREAPER=off';
  if (findPerl() === null) return 'perl is not on PATH';
  return null;
}

/** The holder's prctl argument: the number, or "" for syscall.ph (harness/util/perl.ts). */
export { prctlArgument };

/** `command` under a holder, or null; `clientOnlyFds`: inherited descriptors the holder closes in itself. */
export function holderCommand(
  cgroupProcs: string,
  command: string[],
  recordFile = '',
  clientOnlyFds = CLIENT_ONLY_FDS,
  drillId = '',
): [string, string[]] | null {
  if (holderUnavailable() !== null) return null;
  return [findPerl()!, ['-e', HOLDER_SCRIPT, cgroupProcs, clientOnlyFds, recordFile, drillId, prctlArgument(), '--', ...command]];
}

/** A spare holder's command (holder-pool.ts): it takes its drill from goLine(); `command` is the part known in advance. */
export function spareHolderCommand(command: string[], clientOnlyFds: string): [string, string[]] | null {
  if (holderUnavailable() !== null) return null;
  // "--" ends perl's own switches: "--wait" is the script's.
  return [findPerl()!, ['-e', HOLDER_SCRIPT, '--', '--wait', prctlArgument(), clientOnlyFds, ...command]];
}

const hexField = (text: string): string => `x${Buffer.from(text, 'utf8').toString('hex')}`;

/** The line that gives a spare holder its drill: where to put the client, its environment and the rest of its command. */
export function goLine(cgroupProcs: string, recordFile: string, drillId: string, env: Record<string, string>, args: string[]): string {
  // Without the drill marker: the holder gives it to its child alone, as holderEnv() does.
  const pairs = Object.entries(env)
    .filter(([name]) => name !== DRILL_ENV)
    .map(([name, value]) => `${name}=${value}\0`)
    .join('');
  return `go ${[cgroupProcs, recordFile, drillId, pairs, ...args].map(hexField).join(' ')}\n`;
}

/** Without the drill marker, which the holder passes to its child alone: a sweep never ends a holder before its watchdog recorded what it ended. */
export function holderEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.CRASH_DRILL_RUN;
  return out;
}

/** perl, for the in-process client's stand-in (stand-in.pl); null when there is no holder. */
export function perlForStandIn(): string | null {
  return holderUnavailable() === null ? findPerl() : null;
}

/** Applies one report line to the state; 'child-changed' when any child of the holder (an orphan too) exited. */
export function parseHolderLine(line: string, state: HolderState): 'client-exit' | 'child-changed' | null {
  const [word, ...rest] = line.trim().split(' ');
  if (word === 'subreaper') state.subreaper = rest[0] === '1' ? { ok: true } : { ok: false, reason: rest.slice(1).join(' ') || 'unknown' };
  else if (word === 'child') state.clientPid = Number(rest[0]);
  else if (word === 'watchdog') state.watchdogSignalled = Number(rest[0]);
  else if (word === 'exit') {
    state.clientCpuTicks = rest[2] === undefined || rest[2] === '-' ? null : Number(rest[2]);
    return 'client-exit';
  } else if (word === 'chld') return 'child-changed';
  return null;
}
