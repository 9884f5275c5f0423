/**
 * Causes when the server runs in a container (`docker run -i ...`): the process the drill
 * started is the engine CLI, so what held the server up is the container's, not the CLI's
 * threads. From the container events in the evidence (harness/containers/). Pure.
 */
import { containerContainmentOf, containerExitOf, containerServerOf, shortId } from '../evidence/container-queries.js';
import type { DrillEvidence } from '../evidence/types.js';
import { describeStep } from '../containment/step.js';
import { containerSurvivors } from '../checks/no-survivors-containers.js';
import type { Cause } from './diagnosis-server.js';

/** The subject's own container did not exit on EOF in time. */
export function containerExitCause(evidence: DrillEvidence): Cause | null {
  const server = containerServerOf(evidence);
  if (!server) return null;
  const c = server.container;
  const exit = containerExitOf(evidence);
  const steps = containerContainmentOf(evidence).find((r) => r.id === c.id)?.steps ?? [];
  const killed = steps.some((s) => s.kind === 'engine' && s.command === 'kill' && s.result === 'sent') || exit?.code === 137;
  const observed = [
    `the server is container ${shortId(c.id)} (${c.image}, ${c.command.join(' ').slice(0, 60)}), run by the engine CLI pid ${server.cli.pid}`,
    exit ? `the container exited with code ${exit.code}` : 'the container had not exited when the drill ended',
    ...steps.map((s) => `containment: ${describeStep(s)}`),
  ];
  return {
    cause: `the container's main process did not exit when its stdin closed (docker run -i passes the client's EOF on)${killed ? ', and it outlived SIGTERM: only a kill ended it' : ''}`,
    observed,
    sdk: null,
    fix: killed
      ? "make the container's main process exit on stdin EOF, and run it with --init (a PID 1 without a SIGTERM handler ignores SIGTERM, so docker stop waits and kills)"
      : "make the container's main process exit on stdin EOF",
  };
}

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
