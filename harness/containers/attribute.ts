/**
 * Which containers are the drill's (pure). Labelled with this drill's id (label.ts): ours; another
 * drill's: not. Unlabelled: ours when the drill's engine CLI processes asked for that image as it
 * was created, one process per container; more containers than processes, or one no process we
 * saw asked for, is ambiguous (the caller's `unknown`, never `pass`). No engine activity: not ours.
 */
import type { RunCommand } from './engine-cli.js';
import type { EngineEvent } from './engine.js';
import { RUN_LABEL } from './label.js';
import type { AmbiguousContainer, CliProcess } from './types.js';

export type CliSighting = CliProcess & { run: RunCommand; firstSeenWall: number; lastSeenWall: number | null };

export type Attribution = {
  ours: Array<{ id: string; by: 'label' | 'engine-cli'; cli: CliProcess | null }>;
  ambiguous: AmbiguousContainer[];
};

/** How far a create event may lie outside the time a CLI was seen (sampling, clock reads). */
const SLACK_MS = 250;

/** `docker.io/library/node:latest` and `node` are one image. */
export function sameImage(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/^(docker\.io\/)?(library\/)?/, '').replace(/:latest$/, '');
  return norm(a) === norm(b) || (a.startsWith('sha256:') && b.startsWith(a));
}

function cliOf(sighting: CliSighting): CliProcess {
  return { pid: sighting.pid, startTime: sighting.startTime, cmdline: sighting.cmdline };
}

export function attribute(drillId: string, events: EngineEvent[], clis: CliSighting[], engineInUse: boolean): Attribution {
  const creates = events.filter((e) => e.action === 'create');
  const ours: Attribution['ours'] = [];
  const unlabelled: EngineEvent[] = [];
  for (const event of creates) {
    const label = event.labels[RUN_LABEL];
    if (label === drillId) {
      const cli = clis.find((c) => c.run.labels[RUN_LABEL] === drillId && sameImage(c.run.image ?? '', event.image));
      ours.push({ id: event.id, by: 'label', cli: cli ? cliOf(cli) : null });
    } else if (label === undefined) {
      unlabelled.push(event);
    }
  }
  const ambiguous: AmbiguousContainer[] = [];
  const free = clis.filter((c) => c.run.labels[RUN_LABEL] === undefined);
  const matches = (c: CliSighting, e: EngineEvent): boolean =>
    c.run.image !== null &&
    sameImage(c.run.image, e.image) &&
    (c.run.name === null || c.run.name === e.name) &&
    e.wallMs >= c.firstSeenWall - SLACK_MS &&
    (c.lastSeenWall === null || e.wallMs <= c.lastSeenWall + SLACK_MS);
  // Group the unlabelled containers by the set of CLI processes that could have asked for them.
  const groups = new Map<string, { clis: CliSighting[]; events: EngineEvent[] }>();
  for (const event of unlabelled) {
    const candidates = free.filter((c) => matches(c, event));
    if (candidates.length === 0) {
      if (engineInUse) ambiguous.push(ambiguousRow(event, 'created during the drill on the engine it uses, by no engine CLI process seen among its members'));
      continue;
    }
    const key = candidates.map((c) => `${c.pid}:${c.startTime}`).join(',');
    const group = groups.get(key) ?? { clis: candidates, events: [] };
    group.events.push(event);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    if (group.events.length > group.clis.length) {
      const reason = `${group.events.length} containers of image ${group.events[0].image} were created while ${group.clis.length} engine CLI process(es) of the drill asked for it: another user of the engine cannot be told apart`;
      for (const event of group.events) ambiguous.push(ambiguousRow(event, reason));
      continue;
    }
    // As many processes as containers: each container goes with the process seen closest to its creation.
    const sorted = [...group.events].sort((a, b) => a.wallMs - b.wallMs);
    const byStart = [...group.clis].sort((a, b) => a.firstSeenWall - b.firstSeenWall);
    for (const [i, event] of sorted.entries()) ours.push({ id: event.id, by: 'engine-cli', cli: cliOf(byStart[i]) });
  }
  return { ours, ambiguous };
}

function ambiguousRow(event: EngineEvent, reason: string): AmbiguousContainer {
  return { id: event.id, name: event.name, image: event.image, created: new Date(event.wallMs).toISOString(), reason };
}
