/**
 * A run that asks for a loopback-only network (`--network loopback`, the config's `network`, a
 * scenario's `network: loopback`) refuses before anything starts where none can be made, with
 * the kernel's reason; it never drills such a server on the host's network instead. `--network
 * host` is the explicit way out (docs/network.md).
 */
import type { Scenario } from '../config/index.js';
import { loopbackUnavailable } from '../drill/network/namespace.js';
import { UserError } from '../util/errors.js';

export class NetworkUnavailableError extends UserError {
  readonly code = 'CRASH_DRILL_NETWORK_UNAVAILABLE';
  constructor(
    /** What asked for it: `--network loopback`, the config file's key, or a scenario file's field. */
    readonly askedBy: string,
    readonly reason: string,
  ) {
    super(
      `${askedBy}: no loopback-only network can be made here for the servers under drill: ${reason}. Nothing was run; --network host runs them on the host's network instead`,
    );
    this.name = 'NetworkUnavailableError';
  }
}

/**
 * Throws NetworkUnavailableError when a drilled scenario asks for loopback and none can be made
 * here. `override`: where a run-wide `network` came from (`--network`, or the config file), named
 * in the error; without one, the first scenario file that asks is.
 */
export async function refuseWithoutNetwork(drilled: readonly Scenario[], override?: string): Promise<void> {
  const first = drilled.find((s) => s.network === 'loopback');
  if (!first) return;
  const reason = await loopbackUnavailable();
  if (reason === null) return;
  throw new NetworkUnavailableError(override ? `${override} loopback` : `${first.file}: network: loopback`, reason);
}
