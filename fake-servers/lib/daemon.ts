/** The daemonizes server's helper: a double-forked setsid daemon (see daemon-launcher.ts). */
import { spawn } from 'node:child_process';
import { firstStdoutLine, type ChildTracker } from './children.js';
import { DAEMON_LAUNCHER_SCRIPT } from './paths.js';

export class DaemonStartError extends Error {
  readonly code = 'FAKE_DAEMON_START_FAILED';
}

/**
 * Starts the launcher synchronously (so a call that reached the server is acted on even if
 * stdin ends right after it) and returns the daemon's pid once the launcher reports it. The
 * launcher is tracked like any child; the daemon is not, on purpose: the server never ends it.
 */
export function startDaemon(tracker: ChildTracker): Promise<number> {
  const launcher = spawn(process.execPath, [DAEMON_LAUNCHER_SCRIPT], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  tracker.track(launcher);
  return firstStdoutLine(launcher).then(
    (line) => {
      const pid = Number(line);
      if (!Number.isInteger(pid) || pid <= 0) throw new DaemonStartError(`daemon launcher printed "${line}"`);
      return pid;
    },
    (error: Error) => {
      throw new DaemonStartError(`daemon launcher failed: ${error.message}`);
    },
  );
}
