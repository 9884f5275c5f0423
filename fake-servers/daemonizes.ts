/**
 * daemonizes: its spawn-helper double-forks a setsid daemon (answering with the daemon's pid),
 * which is re-parented to init in its own session, so parent-pid walks and process-group kills
 * miss it. With FAKE_DAEMON_CLEAR_ENV=1 the daemon also has an empty environment, so only a
 * cgroup still finds it. Otherwise it exits on EOF like well-behaved, without ending the daemon
 * (check `no-survivors`).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'daemonizes',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'daemon',
  keepAliveTimer: false,
});
