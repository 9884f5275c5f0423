/**
 * launcher-forwards-signals: the same launcher, forwarding SIGTERM, SIGINT and SIGHUP to the real
 * server (FAKE_LAUNCH, default ignores-eof) as kubernetes-mcp-server 0.0.67 does, and exiting
 * with its status: a signal to the direct child reaches the real server too.
 */
import { launchInherited } from './lib/launch.js';

launchInherited('launcher-forwards-signals', ['SIGTERM', 'SIGINT', 'SIGHUP']);
