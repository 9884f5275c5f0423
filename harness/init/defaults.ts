/** How long `crash-drill init` lets a server take to start and list its tools, by default. */
export const DEFAULT_INIT_TIMEOUT_MS = 30_000;
