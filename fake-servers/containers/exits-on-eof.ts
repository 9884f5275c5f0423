/** container-exits-on-eof: a well-behaved server in a container: stdin ends, it exits 0, `--rm` removes it. */
import { runContainerServer } from './server.js';

await runContainerServer({ name: 'container-exits-on-eof', exitOnEof: true, sigterm: 'exit' });
