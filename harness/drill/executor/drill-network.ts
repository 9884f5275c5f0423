/**
 * A drill's network (docs/network.md): with `network: loopback` the server runs in a namespace
 * of its own where only loopback exists, made before the server starts, with the drill remote's
 * ports (HTTP, HTTPS, the intercept proxy) relayed in at the same numbers, so the URLs the server
 * was given work there. Ended with the drill's other holdings (clean-up.ts).
 */
import type { Scenario } from '../../config/index.js';
import { attributeInside } from '../../remote/attribution/relayed.js';
import { openLoopbackNetwork, type LoopbackNetwork } from '../network/namespace.js';
import type { EvidenceRecorder } from './recorder.js';
import type { RemoteLink } from './remote-link.js';

/** The loopback ports of the remote's URLs this drill was given. */
export function remotePorts(link: RemoteLink): number[] {
  const urls = [link.url, link.trustFiles ? link.httpsUrl : undefined, link.proxyUrl ?? undefined];
  return urls.filter((u): u is string => typeof u === 'string').map((u) => Number(new URL(u).port));
}

/**
 * Opens the drill's loopback-only network and records it; `keep` is given it the moment it
 * exists. Each relayed connection's sender is named inside, among `candidates` (the drill's
 * live pids), and handed to the remote with the relay's socket (remote/attribution/relayed.ts).
 */
export async function openDrillNetwork(
  drillId: string,
  rec: EvidenceRecorder,
  link: RemoteLink,
  candidates: () => number[],
  keep: (n: LoopbackNetwork) => void,
): Promise<LoopbackNetwork> {
  const network = await openLoopbackNetwork(drillId, remotePorts(link), (c, outbound) => {
    const attribution = attributeInside(c.keeperPid, c.innerPort, c.port, candidates(), drillId);
    link.remote.relayedConnection(outbound, attribution);
    rec.harness({ type: 'network-relay', innerPort: c.innerPort, port: c.port, process: attribution.process ?? null });
  });
  keep(network);
  rec.harness({ type: 'network', mode: 'loopback', kind: network.kind, keeper: { ...network.keeper }, ports: [...network.ports] });
  return network;
}

/** The scenario with its server's command entering the network (join.pl), when there is one. */
export function inNetwork(scenario: Scenario, network: LoopbackNetwork | undefined): Scenario {
  if (!network) return scenario;
  const [command, args] = network.command(scenario.subject.command, scenario.subject.args);
  return { ...scenario, subject: { ...scenario.subject, command, args } };
}
