/**
 * How a fake server ends itself once it lost its client (stdin EOF, stdout EPIPE) or got
 * SIGTERM: stop taking calls, settle with the remote (cancel its jobs), optionally wait, clear
 * timers, end its children, exit 0.
 */
import type { McpServer } from './sdk.js';
import type { ChildTracker } from './children.js';
import { exitWithMark } from './exit-mark.js';
import type { Log } from './log.js';
import type { TimerRegistry } from './timers.js';

export interface ShutdownDeps {
  server: McpServer;
  children: ChildTracker;
  timers: TimerRegistry;
  log: Log;
  /** false for leaks-child and daemonizes' daemon: the oracle for `no-survivors`. */
  endChildren: boolean;
  /**
   * Runs once calls have stopped, before the exit delay and the children: the remote part of
   * the shutdown (remote-on-loss.ts). It bounds itself.
   */
  onLoss?: () => Promise<void>;
}

export class Shutdown {
  private started = false;
  private callsClosed = false;
  private cutDelayShort: (() => void) | undefined;

  constructor(private readonly deps: ShutdownDeps) {}

  /**
   * True once the shutdown stopped taking calls and gave the handlers dispatched from data read
   * before the EOF their turn: a tool handler that runs after this starts no new write.
   */
  get refusesCalls(): boolean {
    return this.callsClosed;
  }

  /**
   * Starts the shutdown once. A later call with no delay (SIGTERM during slow-exit's wait)
   * cuts the pending delay short, as the spec's "close stdin, wait, SIGTERM" expects.
   */
  begin(reason: string, delayMs = 0): void {
    if (this.started) {
      if (delayMs === 0 && this.cutDelayShort) {
        this.deps.log(`${reason} during the exit delay: exiting now`);
        this.cutDelayShort();
      }
      return;
    }
    this.started = true;
    void this.run(reason, delayMs);
  }

  private async run(reason: string, delayMs: number): Promise<void> {
    const { server, children, timers, log } = this.deps;
    log(`shutting down (${reason})`);
    // Stop taking calls: closing the server detaches the transport's stdin listener.
    await server.close().catch(() => {});
    // One macrotask turn, so a handler already dispatched from data read before the EOF has
    // started its child (handlers spawn synchronously) and that child is ended below.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.callsClosed = true;
    await this.deps.onLoss?.().catch((error: unknown) => log(`remote cleanup failed: ${String(error)}`));
    if (delayMs > 0) {
      log(`waiting ${delayMs} ms before exiting`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        this.cutDelayShort = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.cutDelayShort = undefined;
    }
    timers.clearAll();
    if (this.deps.endChildren) {
      await children.endAll();
    } else if (children.liveCount > 0) {
      log(`leaving ${children.liveCount} child(ren) running`);
    }
    log('exit 0');
    exitWithMark(0);
  }
}
