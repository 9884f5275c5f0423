/**
 * What a drill reads of its client profile, as one value: under two profiles whose values are
 * equal the drill gets the same inputs, so it is one drill (not-repeated.ts). Built by leaving out
 * what the drill does not read, so a fact added to ClientBehaviour counts until shown not to.
 *
 * Every drill reads `spawn` (harness/shared/spawn-subject.ts, client-env.ts, pre-exec.ts; its
 * `stderr` in stderr-room.ts and harness/drill/client/in-process-client.ts's loss) and
 * `closesStdinWhenChildExits` (harness/shared/client-session.ts, at the spawn). The loss reads
 * `crash` in crash (harness/drill/executor/kill.ts's parent-death signal; lossBeginsWithEof in
 * harness/evidence/client-signals.ts decides whether exit-on-eof applies) and `stop`, its waits
 * as the scenario's close-wait makes them (profile-facts.ts), in close and stop (kill.ts,
 * observation.ts, client-signals.ts) and wherever the recovery retry runs: it stops its server
 * the client's way (retry.ts). A cancel drill's loss is its `cancel.then`.
 * Read by no drill: `name`, `client`, `versions` and `observed` (words of the record and the
 * report), `sources` (the report's unsourced note, kept per profile in results.json's
 * notRepeated) and `abandons` (which client action drops a server: abandon drops it the same
 * way under every profile, kill.ts).
 */
import { type ClientBehaviour, withWaits } from '../client-profiles/profiles.js';
import type { KillMode, Scenario } from '../config/index.js';

export function profileInputs(behaviour: ClientBehaviour, mode: KillMode, scenario: Scenario): Record<string, unknown> {
  const { name: _name, client: _client, versions: _versions, observed: _observed, sources: _sources, abandons: _abandons, crash, stop, ...read } = behaviour;
  const loss = mode === 'cancel' ? scenario.cancel.then : mode;
  const retried = scenario.retry && loss !== null && loss !== 'hang';
  const stops = loss === 'close' || loss === 'stop' || retried;
  return {
    ...read,
    ...(loss === 'crash' ? { crash } : {}),
    ...(stops ? { stop: withWaits(stop, scenario.timeouts.closeWait) } : {}),
  };
}
