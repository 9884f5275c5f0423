/** A run that asks for a loopback-only network refuses up front where none can be made, and never falls back to the host's (docs/network.md). */
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

/** Throws NetworkUnavailableError when a scenario asks for loopback and none can be made; names where the ask came from. */
export async function refuseWithoutNetwork(drilled: readonly Scenario[], override?: string): Promise<void> {
  const first = drilled.find((s) => s.network === 'loopback');
  if (!first) return;
  const reason = await loopbackUnavailable();
  if (reason === null) return;
  throw new NetworkUnavailableError(override ? `${override} loopback` : `${first.file}: network: loopback`, reason);
}
