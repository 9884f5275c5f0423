/**
 * container-ignores-eof: a live timer keeps it up after stdin ends, so its container runs on
 * after the client is gone (and `--rm` never fires). It exits on SIGTERM, so `docker stop`
 * ends it at once when it runs under `--init`.
 */
import { runContainerServer } from './server.js';

await runContainerServer({ name: 'container-ignores-eof', exitOnEof: false, sigterm: 'exit' });
