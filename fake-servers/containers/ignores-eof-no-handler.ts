/**
 * container-ignores-eof-no-handler: ignores EOF and installs no SIGTERM handler, relying on the
 * default action. Run without `--init` it is PID 1 of its container, which the kernel spares
 * that default action: `docker stop` waits its full time and the engine has to SIGKILL it
 * (containment is forced).
 */
import { runContainerServer } from './server.js';

await runContainerServer({ name: 'container-ignores-eof-no-handler', exitOnEof: false, sigterm: 'default' });
