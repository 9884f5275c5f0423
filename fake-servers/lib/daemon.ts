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
/**
 * A shell-command tool asked to run `setsid -f env -i /bin/sleep 300`: the shell forks setsid,
 * which forks again and exits, so the sleep has a session of its own, an empty environment
 * and, once the shell is gone, a parent that is init or the nearest subreaper. Untracked, like
 * startDaemon, and spawned synchronously; answers with the shell's pid once the shell exits.
 */
export function startShellDaemon(): Promise<number> {
  const shell = spawn('/bin/sh', ['-c', 'setsid -f env -i /bin/sleep 300 </dev/null >/dev/null 2>&1'], { detached: true, stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    shell.once('error', (error) => reject(new DaemonStartError(`sh failed: ${error.message}`)));
    shell.once('exit', (code) => (code === 0 ? resolve(shell.pid!) : reject(new DaemonStartError(`sh exited ${code}`))));
  });
}

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
