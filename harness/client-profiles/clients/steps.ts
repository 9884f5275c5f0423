/** Builders for the steps of a stop sequence, and the facts several clients share. */
import type { Citation, Liveness, Reach, SignalName, StepSource, StopStep } from '../types.js';

export const closeStdin: StopStep = { kind: 'close-stdin', onlyIfAlive: null };

export const wait = (ms: number, endsWhenGone: Liveness | null, onlyIfSent?: number): StopStep => ({
  kind: 'wait-ms',
  ms,
  endsWhenGone,
  ...(onlyIfSent === undefined ? {} : { onlyIfSent }),
});

export const signal = (name: SignalName, to: Reach, onlyIfAlive: Liveness | null = null, onlyIfSent?: number): StopStep => ({
  kind: 'signal',
  name,
  to,
  onlyIfAlive,
  ...(onlyIfSent === undefined ? {} : { onlyIfSent }),
});

export const cited = (...citations: Citation[]): StepSource => ({ cited: citations });

/** The TypeScript and Python SDKs' default environment (POSIX). */
export const SDK_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;

/** Node's ChildProcess destroys stdin when the child exits: what hands EOF to a server behind a dead launcher. */
export const NODE_STDIN_ON_EXIT: Citation = {
  repo: 'nodejs/node',
  where: 'lib/internal/child_process.js',
  what: 'ChildProcess _handle.onexit destroys stdin',
  version: '871d8204',
};

/** Node's child_process (libuv) gives a child's 'pipe' stdio a Unix socketpair, not a pipe. */
export const NODE_STDIO_SOCKETPAIR: Citation = {
  repo: 'libuv/libuv',
  where: 'src/unix/process.c',
  what: 'uv__process_init_stdio: UV_CREATE_PIPE -> uv__make_socketpair (AF_UNIX, SOCK_STREAM)',
  version: '000b420d',
};

/** The TypeScript SDK's StdioClientTransport from 1.24.0: stdin end, 2 s, SIGTERM, 2 s, SIGKILL, to the direct child. */
export const TS_SDK_LADDER: readonly StopStep[] = [
  closeStdin,
  wait(2000, 'child'),
  signal('SIGTERM', 'child', 'child'),
  wait(2000, 'child'),
  signal('SIGKILL', 'child', 'child'),
];
