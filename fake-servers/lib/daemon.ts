/** The daemonizes server's helper: a double-forked setsid daemon (see daemon-launcher.ts). */
import { spawn } from 'node:child_process';
import { firstStdoutLine } from './children.js';
import { DAEMON_LAUNCHER_SCRIPT } from './paths.js';

export class DaemonStartError extends Error {
  readonly code = 'FAKE_DAEMON_START_FAILED';
}

/**
 * Starts the launcher synchronously (so a call that reached the server is acted on even if
 * stdin ends right after it) and returns the daemon's pid once the launcher reports it.
 * Neither the launcher nor the daemon is tracked, on purpose: the server never ends them. Were
 * the launcher ended with the server's other children, a client lost right after the call
 * would race the launcher's start-up, and the daemon would exist in some runs and not others.
 */
export function startDaemon(): Promise<number> {
  const launcher = spawn(process.execPath, [DAEMON_LAUNCHER_SCRIPT], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
