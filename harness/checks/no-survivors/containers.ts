import { containerSnapshotOf, shortId } from '../../evidence/container-queries.js';
import type { DrillEvidence } from '../../evidence/types.js';

/**
 * The container half of no-survivors: a running container of the drill at the end of the
 * grace period survived, like a process. A container that could not be tied to the drill or
 * ruled out, or an engine that could not be asked, leaves the check unable to pass.
 */
export type ContainerSurvivors = {
  running: Array<{ id: string; name: string; image: string; line: string }>;
  /** Why the check cannot pass on containers, or null. */
  blind: string | null;
};

export function containerSurvivors(evidence: DrillEvidence): ContainerSurvivors | null {
  const snapshot = containerSnapshotOf(evidence);
  if (!snapshot) return null;
  const running = snapshot.running.map((c) => {
    const asker = c.cli ? `, started by pid ${c.cli.pid} ${c.cli.cmdline.slice(0, 3).join(' ')}` : '';
    return { id: c.id, name: c.name, image: c.image, line: `container ${shortId(c.id)} (${c.name}, ${c.image}, ${c.state}, ${c.attributedBy}${asker})` };
  });
  let blind: string | null = null;
  if (!snapshot.reachable) blind = snapshot.blindSpots[0] ?? 'the container engine could not be reached';
  else if (snapshot.ambiguous.length > 0) {
    const [first] = snapshot.ambiguous;
    blind = `${snapshot.ambiguous.length} container(s) created during the drill could not be tied to it or ruled out: ${shortId(first.id)} (${first.image}): ${first.reason}`;
  }
  return { running, blind };
}
