/** The exact non-JSON lines stdout-noise prints, shared with its test (the oracle's answer key). */
export const STDOUT_NOISE_BANNER = 'stdout-noise: starting up (this banner is not JSON-RPC)';
export const STDOUT_NOISE_FIRST_CALL = 'stdout-noise: stray console.log at the first tool call';
