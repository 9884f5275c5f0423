/**
 * container-starts-sibling: exits on EOF like a good server, but its `start-sibling` tool runs
 * `docker run -d` through the engine socket mounted into its container. The sibling is nobody's
 * child and carries no label: only the engine CLI process seen inside the drill's container and
 * the engine's events tie it to the drill.
 */
import { runContainerServer } from './server.js';

await runContainerServer({ name: 'container-starts-sibling', exitOnEof: true, sigterm: 'exit' });
