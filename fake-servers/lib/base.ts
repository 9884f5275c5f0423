/**
 * runFakeServer: one SDK server (McpServer + StdioServerTransport) with the shared tool set,
 * configured for the one behaviour its file is named for.
 */
import { McpServer, StdioServerTransport } from './sdk.js';
import { ActivityLog, type ActivityPolicy } from './activity-log.js';
import type { AfterLoss } from './after-loss.js';
import { ChildTracker, type HelperPlacement } from './children.js';
import { startDaemon, startShellDaemon } from './daemon.js';
import { JobTracker } from './jobs.js';
import { createLog } from './log.js';
import { readRemoteEnv, RemoteHttp } from './remote-http.js';
import { remoteOnLoss } from './remote-on-loss.js';
import { registerRemoteTools } from './remote-tools.js';
import type { WritePolicy } from './remote-writes.js';
import { Shutdown } from './shutdown.js';
import { TimerRegistry } from './timers.js';
import { registerFakeTools } from './tools.js';

export interface FakeServerOptions {
  /** serverInfo.name and the stderr log prefix; the file name of the server. */
  name: string;
  /**
   * Listen to stdin 'end'/'close' and stdout 'error' and shut down on them. The SDK's
   * StdioServerTransport listens to stdin 'data' and 'error' only (typescript-sdk #2002) and has
   * no stdout 'error' handler, so without this an SDK server with a live handle never exits
   * on EOF, and one that writes after its client died throws an unhandled EPIPE.
   */
  exitOnInputLoss: boolean;
  /** After input loss, wait this long before ending children and exiting (slow-exit). */
  exitDelayMs?: number;
  /** 'shutdown': SIGTERM ends children and exits 0 at once. 'log-only': SIGTERM is ignored. */
  onSigterm: 'shutdown' | 'log-only';
  /**
   * 'shutdown': SIGINT ends children and exits 0 (exits-on-sigint-only). Absent: Node's default,
   * which kills the process at once without ending its children.
   */
  onSigint?: 'shutdown';
  /** End the children it started before exiting (false: leaks-child). */
  endChildrenOnExit: boolean;
  /**
   * What spawn-helper starts: a plain child, a double-forked setsid daemon, or a daemon a shell
   * starts with `setsid -f env -i` (what a shell-command tool does when asked to).
   */
  helper: 'child' | 'daemon' | 'shell-daemon';
  /** Where a 'child' helper runs (default its own group: the server's). */
  helperPlacement?: HelperPlacement;
  /** A 'child' helper keeps the server's stdin (inherited, never read). */
  helperHoldsStdin?: boolean;
  /** A live interval from startup, like an SDK server with a timer or subscription. */
  keepAliveTimer: boolean;
  /** Non-JSON lines on stdout: one banner at startup and one at the first tool call. */
  stdoutNoise?: { banner: string; firstCall: string };
  /**
   * Send a log notification every this many ms and keep the SDK's missing stdout 'error'
   * handler: the first write after the client died throws an unhandled EPIPE (crashes-on-epipe).
   */
  notifyEveryMs?: number;
  /** How `write` keys its requests (default `keyed`; see remote-writes.ts). */
  writePolicy?: WritePolicy;
  /** On input loss or SIGTERM, cancel the remote jobs it started (default true). */
  cancelJobsOnLoss?: boolean;
  /** What it does on the remote after input loss, before ending its children (mutants). */
  afterLoss?: AfterLoss;
  /**
   * Shut down (children ended, exit 0) after this many ms with nothing read on stdin: a server
   * that notices a client that dropped it without closing anything (exits-when-idle).
   */
  idleExitMs?: number;
  /** How it keeps its own activity record (activity-log.ts); absent: it keeps none. */
  activity?: ActivityPolicy;
}

export const KEEP_ALIVE_TICK_MS = 1000;

export async function runFakeServer(options: FakeServerOptions): Promise<void> {
  const log = createLog(options.name);
  const timers = new TimerRegistry();
  const children = new ChildTracker(log);
  // Log notifications need the logging capability, or the SDK refuses to send them.
  const capabilities = options.notifyEveryMs === undefined ? { tools: {} } : { tools: {}, logging: {} };
  const server = new McpServer({ name: options.name, version: '0.1.0' }, { capabilities });
  const http = new RemoteHttp(readRemoteEnv());
  const jobs = new JobTracker();
  const activity = new ActivityLog(options.activity);
  const shutdown = new Shutdown({
    server,
    children,
    timers,
    log,
    endChildren: options.endChildrenOnExit,
    onLoss: remoteOnLoss({ http, jobs, log, cancelJobs: options.cancelJobsOnLoss ?? true, afterLoss: options.afterLoss, activity }),
  });

  const noise = options.stdoutNoise;
  if (noise) console.log(noise.banner); // deliberately on stdout: the oracle for stdout-clean
  let firstCall = true;

  const beforeCall = (tool: string): void => {
    if (!firstCall) return;
    firstCall = false;
    log(`first tool call: ${tool}`);
    if (noise) console.log(noise.firstCall);
  };
  registerFakeTools(server, {
    timers,
    spawnHelper: () => {
      if (options.helper === 'daemon') return startDaemon();
      if (options.helper === 'shell-daemon') return startShellDaemon();
      return children.spawnHelper(options.helperPlacement, options.helperHoldsStdin);
    },
    beforeCall,
  });
  registerRemoteTools(server, {
    http,
    jobs,
    writePolicy: options.writePolicy ?? 'keyed',
    activity,
    isStopping: () => shutdown.refusesCalls,
    beforeCall,
  });

  if (options.keepAliveTimer) timers.interval(() => {}, KEEP_ALIVE_TICK_MS);
  if (options.idleExitMs !== undefined) exitWhenIdle(options.idleExitMs, () => shutdown.begin('idle'));

  if (options.exitOnInputLoss) {
    const delay = options.exitDelayMs ?? 0;
    process.stdin.once('end', () => shutdown.begin('stdin end', delay));
    process.stdin.once('close', () => shutdown.begin('stdin close', delay));
    process.stdout.on('error', (error: NodeJS.ErrnoException) => shutdown.begin(`stdout ${error.code ?? 'error'}`, delay));
  } else if (options.notifyEveryMs === undefined) {
    // A bare SDK server dies of an unhandled EPIPE when it answers after its client died, but
    // whether the answer is written before or after the client's death is a race. The mutants
    // that ignore input loss swallow the error, so their one behaviour (staying up) does not
    // depend on that race and their verdicts are the same in every run.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => log(`stdout ${error.code ?? 'error'}: ignored`));
  }

  process.on('SIGTERM', () => {
    if (options.onSigterm === 'shutdown') shutdown.begin('SIGTERM');
    else log('SIGTERM received: ignoring it');
  });
  if (options.onSigint === 'shutdown') process.on('SIGINT', () => shutdown.begin('SIGINT'));

  await server.connect(new StdioServerTransport());
  log(`ready (pid ${process.pid})`);
  if (options.notifyEveryMs !== undefined) {
    timers.interval(() => void server.server.notification({ method: 'notifications/message', params: { level: 'info', data: 'tick' } }), options.notifyEveryMs);
  }
}

/** Calls `onIdle` once stdin has been quiet for `ms`; every chunk read starts the wait again. Unref'd: it keeps nothing alive. */
function exitWhenIdle(ms: number, onIdle: () => void): void {
  let timer: NodeJS.Timeout | null = null;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(onIdle, ms);
    timer.unref();
  };
  process.stdin.on('data', arm);
  arm();
}
