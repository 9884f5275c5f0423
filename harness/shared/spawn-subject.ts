import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { behaviourOf, DEFAULT_PROFILE } from '../client-profiles/profiles.js';
import type { ProcIdentity } from '../observe/index.js';
import { readStatOnce } from '../observe/index.js';
import { monoNow } from '../util/clock.js';
import { clientEnv } from './client-env.js';
import { fifoStdio } from './fifo-stdio.js';
import { restoreHeld } from './held-env.js';
import { preExecCommand } from './pre-exec.js';
import { type ClientEvent, type ClientSpawn, type SubjectLaunch, SUBJECT_STDERR_FD } from './protocol.js';
import { readStderr } from './stderr-room.js';

/** The TypeScript SDK's spawn (the default profile): what a start command that names no client gets. */
export const DEFAULT_CLIENT_SPAWN: ClientSpawn = {
  profile: DEFAULT_PROFILE,
  spawn: behaviourOf(DEFAULT_PROFILE).spawn,
  closesStdinWhenChildExits: behaviourOf(DEFAULT_PROFILE).closesStdinWhenChildExits,
};

export interface SpawnedServer {
  child: ChildProcess;
  /** The client's end of the server's stdin (the child's own `stdin` may be null: spawnSubject). */
  stdin: Writable | null;
  /** The client's end of the server's stdout (a FIFO's, not the child's, when the client gives real pipes). */
  stdout: Readable;
  /** Calls `listener` once, when the server has exited and its stdout is closed (ChildProcess's 'close'). */
  onClose(listener: () => void): void;
  started: Promise<boolean>;
  identity(): ProcIdentity | null;
  exited: boolean;
  /** Hands the stdout text (what arrived so far, then every chunk) to the transport. */
  attach(onChunk: (chunk: string) => void, onEnd: () => void): void;
}

/**
 * Spawns the server at once, before the SDK is loaded, as the drill's client profile spawns it.
 * `stdin` is held here where the profile's runtime does not close it.
 */
export function spawnSubject(subject: SubjectLaunch, emit: (event: ClientEvent) => void, client: ClientSpawn = DEFAULT_CLIENT_SPAWN): SpawnedServer {
  const { spawn: facts } = client;
  const [command, args] = preExecCommand(facts, subject.command, subject.args);
  // Node's 'pipe' is a socketpair (libuv); a client that gives real pipes gets FIFOs (harness/shared/fifo-stdio.ts).
  const pipes = facts.stdio === 'pipe' ? fifoStdio() : null;
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      env: clientEnv(facts.env, restoreHeld(process.env), subject.env),
      cwd: subject.cwd,
      detached: facts.group === 'own-session',
      stdio: [pipes?.serverStdin ?? 'pipe', pipes?.serverStdout ?? 'pipe', facts.stderr === 'inherit' ? SUBJECT_STDERR_FD : 'pipe'],
    });
  } finally {
    pipes?.closeServerEnds();
  }
  if (child.stderr) readStderr(child.stderr, facts.stderr, stderrSink());
  const stdin: Writable | null = pipes?.stdin ?? child.stdin;
  const stdout = pipes?.stdout ?? child.stdout!;
  // Node destroys `child.stdin` when the child exits (lib/internal/child_process.js, onexit).
  if (!client.closesStdinWhenChildExits) child.stdin = null;
  const early: string[] = [];
  let ended = false;
  let sink: ((chunk: string) => void) | null = null;
  let endSink: (() => void) | null = null;
  let identity: ProcIdentity | null = null;
  // ChildProcess's 'close' waits only for the stdio it made: with FIFOs, the exit and their end.
  const closed = pipes
    ? Promise.all([new Promise((resolve) => child.once('exit', resolve)), new Promise((resolve) => stdout.once('close', resolve))])
    : new Promise((resolve) => child.once('close', resolve));
  const spawned: SpawnedServer = {
    child,
    stdin,
    stdout,
    onClose: (listener) => void closed.then(listener),
    exited: false,
    identity: () => identity,
    started: new Promise((resolve) => {
      child.once('error', (error) => {
        emit({ type: 'spawn-error', t: monoNow(), message: error.message });
        resolve(false);
      });
      child.once('spawn', () => {
        const startTime = readStatOnce(child.pid!)?.startTime ?? null;
        if (startTime !== null) identity = { pid: child.pid!, startTime };
        emit({ type: 'subject-spawned', t: monoNow(), pid: child.pid!, startTime });
        resolve(true);
      });
    }),
    attach(onChunk, onEnd) {
      for (const chunk of early.splice(0)) onChunk(chunk);
      sink = onChunk;
      endSink = onEnd;
      if (ended) onEnd();
    },
  };
  child.once('exit', (code, signal) => {
    spawned.exited = true;
    emit({ type: 'subject-exit', t: monoNow(), code, signal });
  });
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => (sink ? sink(chunk) : early.push(chunk)));
  stdout.on('end', () => {
    ended = true;
    endSink?.();
  });
  return spawned;
}

let stderrOut: Writable | null = null;

/** fd 4 of the client process, where the server's stderr goes on to the harness. */
function stderrSink(): Writable {
  if (!stderrOut) {
    // A socket on the inherited pipe (fd 4, which the harness reads), written without blocking the client.
    stderrOut = new Socket({ fd: SUBJECT_STDERR_FD, readable: false, writable: true });
    stderrOut.on('error', () => {});
  }
  return stderrOut;
}
