/**
 * Starting the drill holder (holder.pl) and reading what it reports. The holder needs
 * perl; without it, or with CRASH_DRILL_SUBREAPER=off (to drill the fallback on purpose), the
 * client runs without one and the tracking says so.
 */
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
  /** The client's own CPU (user + system, clock ticks), read from its zombie before the reap; null until then, or when the holder could not read it. */
  clientCpuTicks?: number | null;
};

/** The holder's inherited descriptors that belong to the client alone: the IPC channel and the subject's stderr. */
const CLIENT_ONLY_FDS = '3,4';

/** Why there is no holder, or null when one can be started. */
export function holderUnavailable(): string | null {
  if (process.platform !== 'linux') return `a child subreaper needs Linux (this is ${process.platform})`;
  if (process.env.CRASH_DRILL_SUBREAPER === 'off') return 'turned off by CRASH_DRILL_SUBREAPER=off';
  if (findPerl() === null) return 'perl is not on PATH';
  return null;
}

/** The holder's prctl argument: the number, or "" for syscall.ph (harness/util/perl.ts). */
export { prctlArgument };

/**
 * The command that starts `command` under a holder, or null when there can be none.
 * `clientOnlyFds`: the inherited descriptors the holder closes in itself (they are the client's).
 */
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

/**
 * A spare holder's command (holder-pool.ts): started before its drill, it takes its drill from
 * goLine() on its control pipe. `command` is the part known in advance (the stand-in's code).
 */
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

/**
 * The holder's environment: the given one without the drill marker. The holder passes the
 * marker to its child alone, so a sweep of a dead run (its sentinel's, or the next run's)
 * never ends a holder before its watchdog has recorded what it ended.
 */
export function holderEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.CRASH_DRILL_RUN;
  return out;
}

/** perl, for the in-process client's stand-in (stand-in.pl); null when there is no holder. */
export function perlForStandIn(): string | null {
  return holderUnavailable() === null ? findPerl() : null;
}

/**
 * Applies one report line to the state; 'client-exit' when the line says the client exited,
 * 'child-changed' when a child of the holder (the client, or a process re-parented to it) did.
 */
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
