/**
 * daemonizes-clean-env: daemonizes with FAKE_DAEMON_CLEAR_ENV=1, as a file of its own so a
 * scenario can name it: the double-forked setsid daemon has an empty environment, so neither
 * parent links nor the drill marker reach it; only a cgroup or a subreaper does.
 */
process.env.FAKE_DAEMON_CLEAR_ENV = '1';
await import('./daemonizes.js');
