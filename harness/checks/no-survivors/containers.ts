import { containerSnapshotOf, shortId } from '../../evidence/container-queries.js';
import type { DrillEvidence } from '../../evidence/types.js';

/** no-survivors for containers: a running drill container survived; an ambiguous one or an unreachable engine blocks a pass. */
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
