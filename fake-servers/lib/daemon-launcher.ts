/**
 * The middle process of a double fork. It was started detached (its own session), starts the
 * real daemon detached as well, prints the daemon's pid on stdout and exits at once, so the
 * daemon is re-parented to init (or the nearest subreaper) in a session of its own: walking
 * parent pids from the server no longer finds it. With FAKE_DAEMON_CLEAR_ENV=1 the daemon also
 * gets an empty environment, so scanning for CRASH_DRILL_RUN misses it; only a cgroup keeps it.
 */
import { spawn } from 'node:child_process';
import { HELPER_SCRIPT } from './paths.js';

const clearEnv = process.env.FAKE_DAEMON_CLEAR_ENV === '1';
const daemon = spawn(process.execPath, [HELPER_SCRIPT], {
  detached: true,
  stdio: 'ignore',
  env: clearEnv ? {} : process.env,
});
daemon.on('error', (error) => {
  process.stderr.write(`daemon-launcher: spawn failed: ${error.message}\n`);
  process.exit(1);
});
if (daemon.pid !== undefined) {
  daemon.unref();
  process.stdout.write(`${daemon.pid}\n`, () => process.exit(0));
}
