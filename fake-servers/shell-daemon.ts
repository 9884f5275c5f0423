/**
 * shell-daemon: its spawn-helper runs `setsid -f env -i /bin/sleep 300` through /bin/sh, as a
 * shell-command server does when a tool call asks it to. The sleep has its own session, an
 * empty environment (no CRASH_DRILL_RUN) and no parent left in the drill: only a cgroup or a
 * subreaper finds it. Otherwise it exits on EOF like well-behaved (check `no-survivors`).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'shell-daemon',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'shell-daemon',
  keepAliveTimer: false,
});
