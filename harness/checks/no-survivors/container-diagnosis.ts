/** Why containers outlived the drill (a container the server asked the engine for is nobody's child), from container events. Pure. */
import { containerServerOf } from '../../evidence/container-queries.js';
import type { DrillEvidence } from '../../evidence/types.js';
import type { Cause } from '../types.js';
import { containerSurvivors } from './containers.js';

/** Containers of the drill that outlived it; null when none did (then the processes are the cause). */
export function containerSurvivorsCause(evidence: DrillEvidence): Cause | null {
  const running = containerSurvivors(evidence)?.running ?? [];
  if (running.length === 0) return null;
  const own = containerServerOf(evidence)?.container.id;
  const sibling = running.filter((c) => c.id !== own);
  return {
    cause:
      sibling.length > 0
        ? `${sibling.length} container${sibling.length === 1 ? '' : 's'} the server started outlived its client: a container it asked the engine for is nobody's child, so no process-group kill or EOF reaches it`
        : "the server's own container outlived its client: it did not exit on EOF",
    observed: running.map((c) => c.line),
    sdk: null,
    fix:
      sibling.length > 0
        ? 'stop the containers the server starts (docker stop <id>, then docker rm) when stdin ends, and start them with --rm'
        : "make the container's main process exit on stdin EOF, and run it with --init",
  };
}
