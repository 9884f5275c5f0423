/** A drill's client profile as the drill uses it (harness/client-profiles/): its stop sequence with the scenario's close-wait in force. */
import { behaviourOf, unsourcedStepsUsed, withWaits } from '../../client-profiles/profiles.js';
import type { ProfileFacts } from '../../evidence/types.js';
import type { PlannedDrill } from '../../plan/types.js';

export function profileFacts(drill: Pick<PlannedDrill, 'profile' | 'scenario' | 'mode'>): ProfileFacts {
  const behaviour = behaviourOf(drill.profile);
  const { name, spawn, stop, closesStdinWhenChildExits, crash } = behaviour;
  const unsourced = unsourcedStepsUsed(behaviour, drill.mode);
  return {
    name,
    ref: drill.profile,
    versions: behaviour.versions.label,
    spawn,
    stop: withWaits(stop, drill.scenario.timeouts.closeWait),
    closesStdinWhenChildExits,
    crash,
    unsourced,
  };
}
