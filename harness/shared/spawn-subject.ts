import { spawn, type ChildProcess } from 'node:child_process';
import { readStatOnce } from '../observe/proc.js';
import { monoNow } from '../util/clock.js';
import { SUBJECT_STDERR_FD, type ClientEvent, type SubjectLaunch } from './protocol.js';

/**
 * The environment the SDK's StdioClientTransport gives a server when it is given no `env`
 * (DEFAULT_INHERITED_ENV_VARS in @modelcontextprotocol/sdk/client/stdio.js, "inspired by the
 * default env inheritance of sudo"). Copied rather than imported: importing that module loads
 * the SDK's zod schemas, about 100 ms this process should spend while the server starts.
 */
const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export interface SpawnedServer {
  child: ChildProcess;
  /** Resolves true once the process started, false when it could not be spawned. */
  started: Promise<boolean>;
  exited: boolean;
  /** Hands the stdout text (what arrived so far, then every chunk) to the transport. */
  attach(onChunk: (chunk: string) => void, onEnd: () => void): void;
}

/**
 * Spawns the server at once, before the SDK is loaded, and keeps what it writes until the
 * transport attaches: the server's start-up and the client's overlap, as they do in a real
 * client that has its libraries loaded long before it starts a server.
 */
export function spawnSubject(subject: SubjectLaunch, emit: (event: ClientEvent) => void): SpawnedServer {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    // Like the SDK: skip exported shell functions.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  const child = spawn(subject.command, subject.args, {
    env: { ...env, ...subject.env },
    cwd: subject.cwd,
    stdio: ['pipe', 'pipe', SUBJECT_STDERR_FD],
  });
  const early: string[] = [];
  let ended = false;
  let sink: ((chunk: string) => void) | null = null;
  let endSink: (() => void) | null = null;
  const spawned: SpawnedServer = {
    child,
    exited: false,
    started: new Promise((resolve) => {
      child.once('error', (error) => {
        emit({ type: 'spawn-error', t: monoNow(), message: error.message });
        resolve(false);
      });
      child.once('spawn', () => {
        emit({ type: 'subject-spawned', t: monoNow(), pid: child.pid!, startTime: readStatOnce(child.pid!)?.startTime ?? null });
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
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (sink ? sink(chunk) : early.push(chunk)));
  child.stdout!.on('end', () => {
    ended = true;
    endSink?.();
  });
  return spawned;
}
