/**
 * The server as the in-process client sees it: a ChildProcess-shaped handle over the harness's
 * pipes, so the transport and session run unchanged. `kill` signals by identity: the server is
 * the stand-in's child, not the harness's, so only its start time proves the pid is still its.
 */
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { SpawnedServer } from '../../shared/spawn-subject.js';
import type { ClientEvent } from '../../shared/protocol.js';
import { readStatOnce } from '../../observe/index.js';
import { monoNow } from '../../util/clock.js';
import { pipeLines } from '../../util/lines.js';
import { signalIdentity } from '../../containment/signal.js';

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));

/** The part of ChildProcess the transport and the session use. */
export class SubjectHandle extends EventEmitter {
  pid: number | undefined;
  startTime: number | null = null;
  exitCode: number | null = null;

  constructor(
    readonly stdin: Writable,
    readonly stdout: Readable,
  ) {
    super();
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.pid === undefined || this.startTime === null) return false;
    return signalIdentity({ pid: this.pid, startTime: this.startTime }, signal) === 'sent';
  }
}

/** Reads the stand-in's reports and hands the server over as spawn-subject.ts does: the same events, the same early buffering. */
export function heldSubject(
  command: string,
  stdin: Writable,
  stdout: Readable,
  reports: Readable,
  emit: (event: ClientEvent) => void,
  onSelf: (pid: number) => void,
): SpawnedServer & { child: SubjectHandle; shut: () => void } {
  const child = new SubjectHandle(stdin, stdout);
  const early: string[] = [];
  let ended = false;
  let exited = false;
  let outClosed = false;
  let sink: ((chunk: string) => void) | null = null;
  let endSink: (() => void) | null = null;
  let resolveStarted!: (ok: boolean) => void;
  const started = new Promise<boolean>((resolve) => (resolveStarted = resolve));
  // Like ChildProcess: 'close' once the process has exited and its stdout is closed.
  let closeEmitted = false;
  const emitClose = () => {
    if (closeEmitted) return;
    closeEmitted = true;
    child.emit('close', child.exitCode, null);
  };
  const maybeClose = () => {
    if (exited && outClosed) emitClose();
  };
  const spawned = {
    child,
    stdin,
    stdout,
    onClose: (listener: () => void) => void child.once('close', listener),
    exited: false,
    started,
    identity: () => (child.pid !== undefined && child.startTime !== null ? { pid: child.pid, startTime: child.startTime } : null),
    /** Tells the transport the connection closed, so the SDK settles its pending requests and clears their timers. */
    shut: emitClose,
    attach(onChunk: (chunk: string) => void, onEnd: () => void) {
      for (const chunk of early.splice(0)) onChunk(chunk);
      sink = onChunk;
      endSink = onEnd;
      if (ended) onEnd();
    },
  };
  pipeLines(reports, (line) => {
    const [word, a, b] = line.trim().split(' ');
    const t = monoNow();
    if (word === 'self') onSelf(Number(a));
    else if (word === 'spawned') {
      child.pid = Number(a);
      child.startTime = readStatOnce(child.pid)?.startTime ?? null;
      emit({ type: 'subject-spawned', t, pid: child.pid, startTime: child.startTime });
      resolveStarted(true);
    } else if (word === 'spawn-error') {
      emit({ type: 'spawn-error', t, message: `spawn ${command} ${a}` });
      resolveStarted(false);
    } else if (word === 'exit') {
      const code = a === '-' ? null : Number(a);
      const signal = b === '-' ? null : (SIGNAL_NAMES.get(Number(b)) ?? null);
      exited = true;
      spawned.exited = true;
      child.exitCode = code;
      emit({ type: 'subject-exit', t, code, signal });
      child.emit('exit', code, signal);
      maybeClose();
    }
  });
  // The stand-in died before it said anything: the server was never started.
  reports.on('close', () => resolveStarted(false));
  stdout.setEncoding('utf8');
  stdout.on('error', () => {});
  stdin.on('error', () => {});
  stdout.on('data', (chunk: string) => (sink ? sink(chunk) : early.push(chunk)));
  stdout.on('end', () => {
    ended = true;
    endSink?.();
  });
  stdout.on('close', () => {
    outClosed = true;
    maybeClose();
  });
  return spawned as SpawnedServer & { child: SubjectHandle; shut: () => void };
}
