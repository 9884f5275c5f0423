/** A drill's client profile as the drill uses it (harness/client-profiles/): its stop sequence with the scenario's close-wait in force. */
import { CLIENT_PROFILES, withWaits } from '../../client-profiles/profiles.js';
import type { ProfileFacts } from '../../evidence/types.js';
import type { PlannedDrill } from '../../plan/types.js';

export function profileFacts(drill: Pick<PlannedDrill, 'profile' | 'scenario'>): ProfileFacts {
  const { name, spawn, stop, closesStdinWhenChildExits, crash } = CLIENT_PROFILES[drill.profile];
  return { name, spawn, stop: withWaits(stop, drill.scenario.timeouts.closeWait), closesStdinWhenChildExits, crash };
}
