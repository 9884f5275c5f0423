/**
 * Drills that an earlier drill's evidence can show are the same drill (`notRepeatedByEvidence`, the
 * survey's runs). A `stop` drill differs from its `close` twin (same scenario, subject, point and
 * profile) only after the profile's stop sequence: in close the client then quits, its ends of the
 * pipes closing with it; in stop it lives on (harness/drill/executor/observation.ts). Where the close
 * drill's client quit with the server's exit recorded and no process of the drill alive that it can
 * reach (harness/evidence/client-signals.ts, quitReachedNothing), the quit reached nothing: the stop
 * drill would have run the same steps on the same processes and seen the same, so it is not run, and
 * results.json lists it as not repeated, with the reason. Where anything in reach was left, it runs.
 *
 * Not where the recovery retry runs (it starts a server again after the loss), nor for a repeat
 * (each attempt is its own evidence) or a shard (a twin in another shard is not seen).
 */
import { profileKeySuffix } from '../client-profiles/profiles.js';
import type { PlannedDrill } from './types.js';

/** Why a stop drill left out by its close twin's evidence is the same drill, as results.json says it. */
export const SAME_BY_QUIT =
  "its close drill showed the client quit with the server exited and no process of the drill left that the quit could reach (none holding the server's stdio, a child of the client or stopped): the stop drill, whose client lives on instead, is the same drill";

/** Each stop drill's close twin among `drills`, by position: the stop drill at the key's position waits for the twin's evidence. */
export function closeTwins(drills: readonly PlannedDrill[]): Map<number, number> {
  const position = new Map(drills.map((d, i) => [d.key, i]));
  const twins = new Map<number, number>();
  drills.forEach((drill, i) => {
    if (drill.mode !== 'stop' || drill.scenario.retry) return;
    const suffix = profileKeySuffix(drill.profile);
    const base = drill.key.slice(0, drill.key.length - suffix.length);
    if (!base.endsWith(`/${drill.point}/stop`)) return;
    const twin = position.get(`${base.slice(0, -'stop'.length)}close${suffix}`);
    if (twin !== undefined && drills[twin].mode === 'close' && drills[twin].profile === drill.profile) twins.set(i, twin);
  });
  return twins;
}
